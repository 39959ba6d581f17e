package org.approxgp.projection;

import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.TiltedMoments;

/**
 * Maps the tilted distribution q̃(f) ∝ N(f | m, v) p(y | f) to a Gaussian N(f | μ, σ²). The returned
 * {@code logZ} is always the tilted normaliser log ∫ N(f | m, v) p(y | f) df (the evidence needs it
 * whatever the divergence); {@code mean} and {@code variance} are the projection's.
 */
public interface Projection {

  /**
   * Projects q̃ for observation y and cavity N(m, v).
   *
   * @throws org.approxgp.special.NumericalException when the projection cannot be computed (an integral
   *     or an inner optimisation that does not converge); the site loop reports it as an
   *     {@code InferenceException} naming the site
   */
  TiltedMoments project(Likelihood likelihood, double y, double m, double v);

  /** "kl" or "w2" (etc.), for diagnostics and reports. */
  String name();
}
