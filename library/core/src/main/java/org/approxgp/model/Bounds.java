package org.approxgp.model;

import java.util.List;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Likelihood;

/**
 * Box bounds on the log-hyperparameters (the kernel's, then the likelihood's), on by default.
 *
 * <p>Why: with separable data the evidence keeps growing as the signal variance grows (GPML let
 * Sonar's run off to 3e18), and ARD length-scales of irrelevant inputs grow without limit. The
 * defaults — length-scales in [1e-3, 1e4] and signal variance in [1e-4, 1e4] (inputs are expected
 * on a standardised scale) — never bind at a sensible optimum; when one does, the fit reports it.
 *
 * <p>Likelihood hyperparameters (also on a log scale) are bounded by name: a noise variance
 * ("noise_variance") in [{@value #MIN_NOISE_VARIANCE}, {@value #MAX_NOISE_VARIANCE}] (the floor keeps K + σ²I
 * well conditioned when the noise runs to 0 on interpolating data), a step's label-noise rate ("epsilon")
 * in [{@value #MIN_EPSILON}, {@value #MAX_EPSILON}] (ε = ½ is a likelihood that ignores the data), any other
 * in [{@value #MIN_OTHER}, {@value #MAX_OTHER}].
 */
public record Bounds(double[] lower, double[] upper) {

  public static final double MIN_LENGTHSCALE = 1e-3;
  public static final double MAX_LENGTHSCALE = 1e4;
  public static final double MIN_SIGNAL_VARIANCE = 1e-4;
  public static final double MAX_SIGNAL_VARIANCE = 1e4;

  public static final double MIN_NOISE_VARIANCE = 1e-6;
  public static final double MAX_NOISE_VARIANCE = 1e4;
  public static final double MIN_EPSILON = 1e-8;
  public static final double MAX_EPSILON = 0.5;
  public static final double MIN_OTHER = 1e-8;
  public static final double MAX_OTHER = 1e8;

  /** The default bounds for a likelihood's log-hyperparameters (empty when it has none). */
  public static Bounds defaults(Likelihood likelihood) {
    List<String> names = likelihood.hyperparameterNames();
    double[] lo = new double[names.size()];
    double[] hi = new double[names.size()];
    for (int j = 0; j < lo.length; j++) {
      String n = names.get(j);
      boolean noise = n.contains("noise_variance");
      boolean eps = n.contains("epsilon");
      lo[j] = Math.log(noise ? MIN_NOISE_VARIANCE : eps ? MIN_EPSILON : MIN_OTHER);
      hi[j] = Math.log(noise ? MAX_NOISE_VARIANCE : eps ? MAX_EPSILON : MAX_OTHER);
    }
    return new Bounds(lo, hi);
  }

  /** The kernel's bounds followed by the likelihood's: the box on GpModel's joint θ. */
  public static Bounds defaults(Kernel kernel, Likelihood likelihood) {
    return defaults(kernel).append(defaults(likelihood));
  }

  /** These bounds followed by {@code more}'s. */
  public Bounds append(Bounds more) {
    double[] lo = java.util.Arrays.copyOf(lower, lower.length + more.lower.length);
    double[] hi = java.util.Arrays.copyOf(upper, upper.length + more.upper.length);
    System.arraycopy(more.lower, 0, lo, lower.length, more.lower.length);
    System.arraycopy(more.upper, 0, hi, upper.length, more.upper.length);
    return new Bounds(lo, hi);
  }

  /** The default bounds for a kernel's θ (names decide: "lengthscale" vs "signal_variance"). */
  public static Bounds defaults(Kernel kernel) {
    List<String> names = kernel.hyperparameterNames();
    double[] lo = new double[names.size()];
    double[] hi = new double[names.size()];
    for (int j = 0; j < lo.length; j++) {
      boolean ls = names.get(j).contains("lengthscale");
      lo[j] = Math.log(ls ? MIN_LENGTHSCALE : MIN_SIGNAL_VARIANCE);
      hi[j] = Math.log(ls ? MAX_LENGTHSCALE : MAX_SIGNAL_VARIANCE);
    }
    return new Bounds(lo, hi);
  }
}
