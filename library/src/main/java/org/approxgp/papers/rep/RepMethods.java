package org.approxgp.papers.rep;

import java.util.List;
import org.approxgp.inference.Ep;
import org.approxgp.inference.Posterior;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.model.InferenceMethod;

/**
 * The one place where the REP experiments choose their likelihood and their inference methods: EP, Power EP
 * (power u) and Relaxed EP (penalty c) in the EP site loop, the noisy-step likelihood p(y|f) = ε + (1 − 2ε) H(y f)
 * (paper eq. 8), and the negative-site-precision policy ({@code "keep"}: Minka's EP, most likely the paper's;
 * {@code "clip"}: GPML's τ̃ ← 0).
 *
 * <p>While Power EP, Relaxed EP or the "keep" policy are not in the library, {@link #placeholders()} is
 * non-empty and names what stands in for what; the notebooks print it, so no figure is mistaken for the paper's
 * methods.
 */
public final class RepMethods {

  /** The paper's three methods, in its order. */
  public static final List<String> METHODS = List.of("ep", "power-ep", "rep");
  /** The two negative-site policies. */
  public static final List<String> POLICIES = List.of("keep", "clip");

  private RepMethods() {
  }

  /** What stands in for a method or likelihood not yet in the library ("" entries are omitted); empty = none. */
  public static List<String> placeholders() {
    return List.of("power-ep and rep run as EP (Power EP / Relaxed EP not yet in the library)",
        "negative-site policy 'keep' runs as 'clip' (KEEP not yet in the site loop)",
        "R(iter) is the RMS change of the site parameters per sweep (the alpha trace is not yet recorded)");
  }

  /** The noisy-step likelihood with labelling-error rate ε (paper eq. 8). */
  static Likelihood likelihood(double epsilon) {
    return NoisyStep.of(epsilon);
  }

  /**
   * The method {@code name} ("ep", "power-ep" with power {@code parameter}, "rep" with penalty {@code parameter};
   * the parameter is ignored for EP) with the given negative-site policy and sweep cap, stopping when the RMS
   * site change is below 1e-6 (the α-change criterion R &lt; 1e-3 is read off the trace, see {@link #sweepsTo}).
   */
  static InferenceMethod method(String name, double parameter, String negativeSites, int maxSweeps) {
    if (!METHODS.contains(name)) {
      throw new IllegalArgumentException("unknown method '" + name + "'; known: " + METHODS);
    }
    if (!POLICIES.contains(negativeSites)) {
      throw new IllegalArgumentException("unknown negative-site policy '" + negativeSites + "'; known: " + POLICIES);
    }
    Ep.Options o = Ep.Options.defaults().withMaxSweeps(maxSweeps).withGradient(false);
    return InferenceMethod.ep(o);
  }

  /**
   * The per-sweep convergence trace R(iter) (paper §6.2: ‖α_iter − α_iter−1‖₂). Until the site loop records
   * the α-trace this is the loop's own trace (RMS change of the site parameters per sweep).
   */
  static double[] trace(Posterior p) {
    return p.diagnostics().trace().stream().mapToDouble(Double::doubleValue).toArray();
  }

  /**
   * Whether the run diverged by the paper's criterion (§6.2: convergence is R(iter) &lt; 10⁻³): R never fell below
   * 10⁻³ before the run ended (at the sweep cap, or stopped early by the site loop's oscillation verdict). A run
   * that reached R &lt; 10⁻³ but not the loop's own stricter site-change tolerance counts as converged.
   */
  static boolean diverged(Posterior p) {
    double[] t = trace(p);
    return RepMethods.sweepsTo(t, RepPaper.CONVERGENCE_THRESHOLD) > t.length;
  }

  /**
   * The first sweep (1-based) after which R(iter) &lt; threshold, or the number of sweeps run plus one when it
   * never was (so a mean over runs counts a non-converged run as at least the cap).
   */
  public static int sweepsTo(double[] trace, double threshold) {
    for (int i = 0; i < trace.length; i++) {
      if (trace[i] < threshold) {
        return i + 1;
      }
    }
    return trace.length + 1;
  }
}
