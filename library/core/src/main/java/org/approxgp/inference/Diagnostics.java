package org.approxgp.inference;

import java.util.List;

/**
 * How an inference run went.
 *
 * @param method "ep", "qp", "laplace", "vb", … (the method's own name)
 * @param iterations sweeps (EP/QP), Newton steps (Laplace) or optimiser iterations (VB)
 * @param converged whether the stopping rule was met before the iteration cap
 * @param finalChange the last value the stopping rule looked at (RMS site change for EP/QP, …)
 * @param seconds wall-clock time of the run
 * @param jitter largest Cholesky jitter that had to be added (0 = none)
 * @param clippedSites site updates whose negative precision was clipped to 0 (EP/QP policy)
 * @param skippedSites site updates skipped because the cavity precision was not positive
 * @param message free text: what the method wants a user to know ("" if nothing)
 * @param trace the stopping rule's value after each iteration, in order (for EP/QP the RMS site change
 *     of each sweep; its last entry is {@code finalChange}); empty when a method records none
 * @param diverged the EP-family verdict: the run ended without converging, either at the sweep cap or
 *     stopped early because it oscillated (see {@link SiteLoopOptions#oscillationWindow()}; the
 *     {@code message} says which). A result, never an exception. False for methods that record no
 *     verdict (Laplace, VB)
 * @param alphaTrace R(iter) = ‖α_iter − α_{iter−1}‖₂ after each sweep, α the predictive-mean weights
 *     (μ = m₀ + Kα), α₀ that of the starting sites (Qi &amp; Guo, "Message passing with relaxed moment
 *     matching", §6.2 and Fig. 3); empty when a method records none
 * @param relaxedSites Relaxed EP: sites whose last update used a relaxation bᵢ ≠ 0 (0 for other methods)
 * @param limitedSteps EP family under {@link SiteLoop.NegativeSitePrecision#KEEP}: site updates whose step was
 *     shortened so that the marginal variance stays positive (at most doubles); see {@link SiteLoop}
 */
public record Diagnostics(
    String method,
    int iterations,
    boolean converged,
    double finalChange,
    double seconds,
    double jitter,
    int clippedSites,
    int skippedSites,
    String message,
    List<Double> trace,
    boolean diverged,
    List<Double> alphaTrace,
    int relaxedSites,
    int limitedSteps) {

  public Diagnostics {
    trace = trace == null ? List.of() : List.copyOf(trace);
    alphaTrace = alphaTrace == null ? List.of() : List.copyOf(alphaTrace);
    message = message == null ? "" : message;
  }

  /** Diagnostics with a convergence trace and no EP-family verdict (diverged false, no α trace). */
  public Diagnostics(
      String method,
      int iterations,
      boolean converged,
      double finalChange,
      double seconds,
      double jitter,
      int clippedSites,
      int skippedSites,
      String message,
      List<Double> trace) {
    this(
        method,
        iterations,
        converged,
        finalChange,
        seconds,
        jitter,
        clippedSites,
        skippedSites,
        message,
        trace,
        false,
        List.of(),
        0,
        0);
  }

  /** Diagnostics without a convergence trace. */
  public Diagnostics(
      String method,
      int iterations,
      boolean converged,
      double finalChange,
      double seconds,
      double jitter,
      int clippedSites,
      int skippedSites,
      String message) {
    this(
        method,
        iterations,
        converged,
        finalChange,
        seconds,
        jitter,
        clippedSites,
        skippedSites,
        message,
        List.of());
  }

  @Override
  public String toString() {
    return method + ": " + iterations + " iterations, "
        + (converged ? "converged" : "NOT converged")
        + String.format(java.util.Locale.ROOT, " (final change %.3g, %.3f s", finalChange, seconds)
        + (jitter > 0 ? ", jitter " + jitter : "")
        + (clippedSites > 0 ? ", " + clippedSites + " clipped sites" : "")
        + (skippedSites > 0 ? ", " + skippedSites + " skipped sites" : "")
        + (relaxedSites > 0 ? ", " + relaxedSites + " relaxed sites" : "")
        + (limitedSteps > 0 ? ", " + limitedSteps + " limited steps" : "")
        + ")" + (message.isEmpty() ? "" : " " + message);
  }
}
