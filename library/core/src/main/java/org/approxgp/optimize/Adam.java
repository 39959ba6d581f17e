package org.approxgp.optimize;

/**
 * Adam (Kingma &amp; Ba, "Adam: a method for stochastic optimization", ICLR 2015, Algorithm 1) for minimising a
 * function from stochastic gradients: with g the gradient at step t = 1, 2, …,
 * m ← β₁m + (1 − β₁)g, v ← β₂v + (1 − β₂)g², m̂ = m/(1 − β₁ᵗ), v̂ = v/(1 − β₂ᵗ), x ← x − α m̂/(√v̂ + ε).
 * The bias corrections m̂, v̂ make the first steps of size ≈ α whatever the scale of g.
 *
 * <p>Holds the moment estimates, so one instance serves one optimisation (not thread-safe).
 */
public final class Adam {

  /**
   * @param learningRate α, positive
   * @param beta1 β₁ ∈ [0, 1) (paper: 0.9)
   * @param beta2 β₂ ∈ [0, 1) (paper: 0.999)
   * @param epsilon ε ≥ 0 (paper: 1e-8)
   */
  public record Settings(double learningRate, double beta1, double beta2, double epsilon) {

    public Settings {
      if (!(learningRate > 0)
          || !(beta1 >= 0 && beta1 < 1)
          || !(beta2 >= 0 && beta2 < 1)
          || !(epsilon >= 0)) {
        throw new IllegalArgumentException(
            "invalid Adam settings " + learningRate + ", " + beta1 + ", " + beta2 + ", " + epsilon);
      }
    }

    /** The paper's defaults β₁ = 0.9, β₂ = 0.999, ε = 1e-8 with learning rate α. */
    public static Settings of(double learningRate) {
      return new Settings(learningRate, 0.9, 0.999, 1e-8);
    }
  }

  private final Settings settings;
  private final double[] m;
  private final double[] v;
  private int t;
  private double beta1Power = 1;
  private double beta2Power = 1;

  /** An optimiser for {@code dimension} coordinates, moments zero. */
  public Adam(int dimension, Settings settings) {
    this.settings = settings;
    this.m = new double[dimension];
    this.v = new double[dimension];
  }

  /**
   * One descent step: x ← x − α m̂/(√v̂ + ε) (Modified: x; not modified: gradient). To maximise, pass −∇.
   */
  public void step(double[] x, double[] gradient) {
    step(x, gradient, null);
  }

  /**
   * One descent step with a per-coordinate unit: x_i ← x_i − α u_i m̂_i/(√v̂_i + ε). Adam's step has size ≈ α in
   * every coordinate whatever the gradient's scale, so u states the coordinate's natural unit (e.g. the current
   * posterior standard deviation of a variational mean). {@code unit} null means all ones.
   */
  public void step(double[] x, double[] gradient, double[] unit) {
    if (x.length != m.length
        || gradient.length != m.length
        || (unit != null && unit.length != m.length)) {
      throw new IllegalArgumentException("Adam of dimension " + m.length + " given " + x.length
          + " and " + gradient.length + " values");
    }
    double b1 = settings.beta1();
    double b2 = settings.beta2();
    t++;
    beta1Power *= b1;
    beta2Power *= b2;
    double c1 = 1 - beta1Power;
    double c2 = 1 - beta2Power;
    for (int i = 0; i < x.length; i++) {
      double g = gradient[i];
      m[i] = b1 * m[i] + (1 - b1) * g;
      v[i] = b2 * v[i] + (1 - b2) * g * g;
      double u = unit == null ? 1 : unit[i];
      x[i] -=
          settings.learningRate() * u * (m[i] / c1) / (Math.sqrt(v[i] / c2) + settings.epsilon());
    }
  }

  /** Steps taken. */
  /** An ascent step: {@link #step} along −gradient (for maximising a bound). */
  public void ascend(double[] x, double[] gradient) {
    ascend(x, gradient, null);
  }

  /** An ascent step with per-coordinate units: {@link #step(double[], double[], double[])} along −gradient. */
  public void ascend(double[] x, double[] gradient, double[] unit) {
    double[] neg = new double[gradient.length];
    for (int i = 0; i < neg.length; i++) {
      neg[i] = -gradient[i];
    }
    step(x, neg, unit);
  }

  public int steps() {
    return t;
  }
}
