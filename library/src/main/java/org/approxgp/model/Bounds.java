package org.approxgp.model;

import java.util.List;
import org.approxgp.kernel.Kernel;

/**
 * Box bounds on the kernel's log-hyperparameters, on by default.
 *
 * <p>Why: with separable data the evidence keeps growing as the signal variance grows (GPML let
 * Sonar's run off to 3e18), and ARD length-scales of irrelevant inputs grow without limit. The
 * defaults — length-scales in [1e-3, 1e4] and signal variance in [1e-4, 1e4] (inputs are expected
 * on a standardised scale) — never bind at a sensible optimum; when one does, the fit reports it.
 */
public record Bounds(double[] lower, double[] upper) {

  public static final double MIN_LENGTHSCALE = 1e-3;
  public static final double MAX_LENGTHSCALE = 1e4;
  public static final double MIN_SIGNAL_VARIANCE = 1e-4;
  public static final double MAX_SIGNAL_VARIANCE = 1e4;

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
