package org.approxgp.sparse;

import java.util.Arrays;
import java.util.List;

/**
 * The five sparse regression models of the sVBSSGP paper's comparison (Hoang, Hoang &amp; Low, AAAI 2017, §5),
 * each with the name {@code approxgp regress --model}, the registry and the experiments' rows use, and the
 * properties the family's shared rules turn on. A model is chosen once, by {@link #of}, where a name enters the
 * library ({@code model.Registry}); from there on it is this type, never a string.
 */
public enum SparseModel {
  /** Stochastic variational Bayesian sparse spectrum GP (the paper's method): k-means partitions, 2m features. */
  SVBSSGP("svbssgp", Size.FEATURES, true, true),
  /** DTC++: the deterministic training conditional with M inducing inputs, its bound learned stochastically. */
  DTC("dtc", Size.INDUCING, false, false),
  /** PIC++: partially independent conditional, M inducing inputs plus exact blocks on k-means partitions. */
  PIC("pic", Size.INDUCING, true, false),
  /** SSGP: sparse spectrum GP (Lázaro-Gredilla et al. 2010), 2m features, L-BFGS on the marginal likelihood. */
  SSGP("ssgp", Size.FEATURES, false, false),
  /** VSSGP: variational sparse spectrum GP (Gal &amp; Turner 2015), 2m features. */
  VSSGP("vssgp", Size.FEATURES, false, false);

  /** What sizes a model: 2m spectral features or M inducing inputs. */
  public enum Size {
    FEATURES,
    INDUCING
  }

  private final String id;
  private final Size size;
  private final boolean partitioned;
  private final boolean stochasticOnly;

  SparseModel(String id, Size size, boolean partitioned, boolean stochasticOnly) {
    this.id = id;
    this.size = size;
    this.partitioned = partitioned;
    this.stochasticOnly = stochasticOnly;
  }

  /** The model's name: "svbssgp", "dtc", "pic", "ssgp" or "vssgp". */
  public String id() {
    return id;
  }

  /** Whether 2m spectral features or M inducing inputs size the model. */
  public Size size() {
    return size;
  }

  /** Whether the model is one of the inducing-point models (DTC++, PIC++), sized by M rather than 2m. */
  public boolean inducingPoints() {
    return size == Size.INDUCING;
  }

  /** Whether the model works on k-means partitions of the training inputs (sVBSSGP, PIC++). */
  public boolean partitioned() {
    return partitioned;
  }

  /** Whether the model is only ever fitted stochastically (sVBSSGP: natural-gradient steps by design). */
  public boolean stochasticOnly() {
    return stochasticOnly;
  }

  /** The names of all models, in declaration order. */
  public static List<String> ids() {
    return Arrays.stream(values()).map(SparseModel::id).toList();
  }

  /**
   * The model called {@code name}.
   *
   * @throws IllegalArgumentException naming the known models, for any other name
   */
  public static SparseModel of(String name) {
    for (SparseModel m : values()) {
      if (m.id.equals(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown model '" + name + "'; known: " + ids());
  }

  @Override
  public String toString() {
    return id;
  }
}
