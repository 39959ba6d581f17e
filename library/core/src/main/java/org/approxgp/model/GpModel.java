package org.approxgp.model;

import java.util.ArrayList;
import java.util.List;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Sites;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.optimize.Lbfgs;

/**
 * Fits a latent GP: optionally maximises the method's log evidence (ELBO for VB) over
 * θ = (kernel log-hyperparameters, likelihood log-hyperparameters) by L-BFGS, warm-starting each inference
 * from the previous evaluation's sites (an explicit argument, not hidden state), then returns the posterior
 * at the optimum. The kernel part of the gradient is the method's analytic one; the likelihood part (a
 * Gaussian noise variance, a step's ε; none for probit or Poisson) is central differences of the log
 * evidence with step {@value #LIKELIHOOD_STEP} in each log-hyperparameter, each side warm-started from the
 * centre's sites (as {@link InferenceMethod#withNumericalGradient} does for the kernel).
 */
public final class GpModel {

  /** Central-difference step in a likelihood log-hyperparameter. */
  public static final double LIKELIHOOD_STEP = 1e-4;

  /**
   * @param optimize whether to learn the hyperparameters (the problem's kernel and likelihood are the
   *     starting point)
   * @param settings L-BFGS settings (default: the QP paper's)
   * @param bounds box on θ, or null for none; bounds covering only the kernel's θ are extended with
   *     {@link Bounds#defaults(org.approxgp.likelihood.Likelihood)} for the likelihood's
   * @param warmStart sites the first inference starts from (e.g. another method's converged sites at the
   *     starting θ), or null for the method's own start; later inferences start from the previous one's
   */
  public record FitOptions(
      boolean optimize, Lbfgs.Settings settings, Bounds bounds, Sites warmStart) {

    /** The options with no warm start. */
    public FitOptions(boolean optimize, Lbfgs.Settings settings, Bounds bounds) {
      this(optimize, settings, bounds, null);
    }

    /** Optimise with the QP paper's settings and the default bounds for the kernel (and likelihood). */
    public static FitOptions optimize(Kernel k) {
      return new FitOptions(true, Lbfgs.Settings.paper(), Bounds.defaults(k));
    }

    /** Keep the given hyperparameters. */
    public static FitOptions fixed() {
      return new FitOptions(false, Lbfgs.Settings.paper(), null);
    }

    /** These options with the first inference started from {@code sites} (null: the method's own start). */
    public FitOptions withWarmStart(Sites sites) {
      return new FitOptions(optimize, settings, bounds, sites);
    }
  }

  private GpModel() {}

  /**
   * Fits {@code problem}'s kernel and likelihood hyperparameters (or keeps them) and returns the posterior.
   *
   * <p>Failures: an {@link InferenceException} (numerical failure) at a trial θ, or at one side of a
   * likelihood central difference, makes the objective +∞ there, so the line search backs off; at the final
   * θ, or without optimisation, it propagates. Any other exception — in particular an
   * {@link IllegalArgumentException}, a programming error — propagates at once.
   */
  public static FittedGp fit(Problem problem, InferenceMethod method, FitOptions options) {
    long t0 = System.nanoTime();
    if (!options.optimize()) {
      Posterior post = method.infer(problem, options.warmStart());
      return new FittedGp(
          post,
          method.name(),
          false,
          0,
          1,
          post.diagnostics().converged(),
          "",
          List.of(),
          (System.nanoTime() - t0) * 1e-9);
    }
    Kernel k0 = problem.kernel();
    Likelihood l0 = problem.likelihood();
    int nk = k0.hyperparameterNames().size();
    int nl = l0.hyperparameterNames().size();
    double[] start = concat(k0.logHyperparameters(), l0.logHyperparameters());
    Bounds bounds = options.bounds();
    if (bounds != null && bounds.lower().length == nk && nl > 0) {
      bounds = bounds.append(Bounds.defaults(l0));
    }
    Sites[] warm = {options.warmStart()};
    // the best posterior evaluated: usually the optimiser's answer, which then needs no further
    // inference
    Posterior[] best = {null};
    double[][] bestTheta = {null};
    Lbfgs.Result r = Lbfgs.minimize(
        (theta, grad) -> {
          if (!allFinite(theta)) {
            // the line search extrapolated from a backed-off (infinite) value to a non-finite trial
            // point
            return Double.POSITIVE_INFINITY;
          }
          Problem p;
          try {
            p = at(problem, theta, nk);
          } catch (IllegalArgumentException e) {
            // finite θ whose exp overflows (or underflows) to a hyperparameter the kernel or the
            // likelihood refuses: an extrapolated line-search trial, from which it backs off
            return Double.POSITIVE_INFINITY;
          }
          Posterior post;
          double[] gl = new double[nl];
          try {
            post = method.infer(p, warm[0]);
            for (int j = 0; j < nl; j++) {
              gl[j] = likelihoodDerivative(method, p, post, j);
            }
          } catch (InferenceException e) {
            // a numerical failure at this θ: the line search backs off. Anything else (an
            // IllegalArgumentException is a programming error) propagates and ends the fit.
            return Double.POSITIVE_INFINITY;
          }
          double[] g = post.logEvidenceGradient();
          if (g == null) {
            throw new IllegalArgumentException(
                "inference method " + method.name() + " returned no log-evidence "
                    + "gradient; fitting needs one (e.g. Ep.Options.withLoop(l -> l.withGradient(true)))");
          }
          if (!Double.isFinite(post.logEvidence()) || !allFinite(g) || !allFinite(gl)) {
            return Double.POSITIVE_INFINITY;
          }
          warm[0] = post.sites();
          if (best[0] == null || post.logEvidence() > best[0].logEvidence()) {
            best[0] = post;
            bestTheta[0] = theta.clone();
          }
          for (int j = 0; j < nk; j++) {
            grad[j] = -g[j];
          }
          for (int j = 0; j < nl; j++) {
            grad[nk + j] = -gl[j];
          }
          return -post.logEvidence();
        },
        start,
        bounds == null ? null : bounds.lower(),
        bounds == null ? null : bounds.upper(),
        options.settings());
    boolean reuse = best[0] != null && java.util.Arrays.equals(bestTheta[0], r.x());
    Posterior post = reuse ? best[0] : method.infer(at(problem, r.x(), nk), warm[0]);
    List<String> names = new ArrayList<>(k0.hyperparameterNames());
    names.addAll(l0.hyperparameterNames());
    List<String> active = new ArrayList<>();
    for (int j : r.activeBounds()) {
      active.add(names.get(j));
    }
    return new FittedGp(
        post,
        method.name(),
        true,
        r.iterations(),
        r.evaluations() + (reuse ? 0 : 1),
        r.converged() && post.diagnostics().converged(),
        r.status(),
        List.copyOf(active),
        (System.nanoTime() - t0) * 1e-9);
  }

  /** The problem at joint θ: its first nk entries are the kernel's, the rest the likelihood's. */
  private static Problem at(Problem problem, double[] theta, int nk) {
    Kernel k = problem.kernel().withLogHyperparameters(java.util.Arrays.copyOfRange(theta, 0, nk));
    Likelihood lik = problem.likelihood();
    if (theta.length > nk) {
      lik = lik.withLogHyperparameters(java.util.Arrays.copyOfRange(theta, nk, theta.length));
    }
    return new Problem(k, problem.x(), problem.y(), lik, problem.priorMean());
  }

  /**
   * ∂ log evidence / ∂ (j-th likelihood log-hyperparameter) by central differences with step
   * {@value #LIKELIHOOD_STEP}, both sides warm-started from the centre's sites. A non-finite side value is an
   * {@link InferenceException}.
   */
  private static double likelihoodDerivative(
      InferenceMethod method, Problem p, Posterior centre, int j) {
    double[] t = p.likelihood().logHyperparameters();
    double[] side = new double[2];
    for (int s = 0; s < 2; s++) {
      double[] ts = t.clone();
      ts[j] += s == 0 ? LIKELIHOOD_STEP : -LIKELIHOOD_STEP;
      Posterior q =
          method.infer(p.withLikelihood(p.likelihood().withLogHyperparameters(ts)), centre.sites());
      if (!Double.isFinite(q.logEvidence())) {
        throw new InferenceException(
            "likelihood gradient: log evidence at "
                + p.likelihood().hyperparameterNames().get(j) + (s == 0 ? " + h" : " - h") + " is "
                + q.logEvidence(),
            centre.diagnostics(),
            null);
      }
      side[s] = q.logEvidence();
    }
    return (side[0] - side[1]) / (2 * LIKELIHOOD_STEP);
  }

  private static double[] concat(double[] a, double[] b) {
    double[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static boolean allFinite(double[] v) {
    for (double x : v) {
      if (!Double.isFinite(x)) {
        return false;
      }
    }
    return true;
  }
}
