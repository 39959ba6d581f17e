package org.approxgp.projection;

import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.TiltedMoments;

/**
 * The KL projection argmin_N KL(q̃ ‖ N): match the tilted mean and variance (EP; Minka 2001, R&amp;W
 * eq. 3.57–3.58).
 */
public final class KlProjection implements Projection, java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** Deserialises to the one instance. */
  private Object readResolve() {
    return INSTANCE;
  }

  private static final KlProjection INSTANCE = new KlProjection();

  private KlProjection() {}

  public static KlProjection get() {
    return INSTANCE;
  }

  @Override
  public TiltedMoments project(Likelihood likelihood, double y, double m, double v) {
    return likelihood.tilted(y, m, v);
  }

  @Override
  public String name() {
    return "kl";
  }
}
