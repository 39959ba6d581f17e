package org.approxgp.inference;

import java.util.Arrays;

/**
 * Gaussian site approximations t̃_i(f_i) ∝ exp(−½ τ̃_i f_i² + ν̃_i f_i) in natural parameters
 * (R&amp;W §3.6: τ̃ = σ̃⁻², ν̃ = τ̃ μ̃). Immutable; arrays are copied in and out.
 */
public final class Sites {
  private final double[] tau;
  private final double[] nu;

  private Sites(double[] tau, double[] nu) {
    if (tau.length != nu.length) {
      throw new IllegalArgumentException(
          "tau and nu lengths differ: " + tau.length + " vs " + nu.length);
    }
    this.tau = tau;
    this.nu = nu;
  }

  public static Sites of(double[] tau, double[] nu) {
    return new Sites(tau.clone(), nu.clone());
  }

  /** All-zero sites (the prior): EP's cold start. */
  public static Sites zeros(int n) {
    return new Sites(new double[n], new double[n]);
  }

  public int size() {
    return tau.length;
  }

  public double[] tau() {
    return tau.clone();
  }

  public double[] nu() {
    return nu.clone();
  }

  /** Root-mean-square of the change in all 2n site parameters: √((‖Δτ̃‖² + ‖Δν̃‖²)/(2n)). */
  public double rmsChange(Sites other) {
    double s = 0;
    for (int i = 0; i < tau.length; i++) {
      double dt = tau[i] - other.tau[i];
      double dn = nu[i] - other.nu[i];
      s += dt * dt + dn * dn;
    }
    return tau.length == 0 ? 0 : Math.sqrt(s / (2 * tau.length));
  }

  @Override
  public String toString() {
    return "Sites[n=" + tau.length + ", tau="
        + Arrays.toString(Arrays.copyOf(tau, Math.min(3, tau.length))) + "…]";
  }
}
