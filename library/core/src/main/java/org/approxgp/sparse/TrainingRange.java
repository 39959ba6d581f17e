package org.approxgp.sparse;

import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;

/**
 * The box the training rows span: per input, the smallest and the largest training value. {@link #clamp} holds each
 * input of a test row at that box's edge ({@link SparseRegression.Extrapolation#CLAMP}); {@link #revert} moves
 * from there to the row as an SE-kernel GP does ({@link SparseRegression.Extrapolation#REVERT}).
 *
 * <p>Why: SSGP's and VSSGP's basis functions are sinusoids of the inputs, so their predictive mean is a
 * trigonometric polynomial, periodic in every direction. Inside the training range the data pin it down; beyond it the
 * fitted frequencies carry it on, and a mean that fell towards the edge of the data rises again past it (cars off the
 * range of weight, issue 46: mileage predicted to rise again past the heaviest training car), or runs away (5,000 rows
 * of txhousing held out above the 95th percentile of volume: SSGP's test RMSE 3.9 times the exact GP's). Holding the
 * inputs at the edge predicts there what the model learned at the nearest point of the box (a zero-order
 * extrapolation); its variance is the edge's, too small where the trend goes on (diamonds above the 95th percentile
 * of carat: VSSGP's 95 % intervals covered 0.20 of the test rows). {@link #revert} keeps the edge's prediction as
 * the knowledge of f there and lets the SE prior with the model's own length-scales carry it to the row.
 *
 * <p>Immutable.
 */
public final class TrainingRange {
  private final double[] lo;
  private final double[] hi;

  private TrainingRange(double[] lo, double[] hi) {
    this.lo = lo;
    this.hi = hi;
  }

  /** The range of {@code train}'s inputs (at least one row). */
  public static TrainingRange of(RegressionData train) {
    int n = train.n();
    int d = train.d();
    if (n < 1) {
      throw new IllegalArgumentException("no training rows");
    }
    double[] x = train.x();
    double[] lo = new double[d];
    double[] hi = new double[d];
    System.arraycopy(x, 0, lo, 0, d);
    System.arraycopy(x, 0, hi, 0, d);
    for (int i = 1; i < n; i++) {
      for (int j = 0; j < d; j++) {
        double v = x[i * d + j];
        lo[j] = Math.min(lo[j], v);
        hi[j] = Math.max(hi[j], v);
      }
    }
    return new TrainingRange(lo, hi);
  }

  /** How many rows of {@code test} have an input outside the range. */
  public int rowsOutside(RegressionData test) {
    check(test);
    int d = lo.length;
    double[] x = test.x();
    int outside = 0;
    for (int i = 0; i < test.n(); i++) {
      for (int j = 0; j < d; j++) {
        double v = x[i * d + j];
        if (v < lo[j] || v > hi[j]) {
          outside++;
          break;
        }
      }
    }
    return outside;
  }

  /**
   * {@code test} with every input held within the range (targets kept); {@code test} itself when every row lies
   * inside.
   */
  public RegressionData clamp(RegressionData test) {
    if (rowsOutside(test) == 0) {
      return test;
    }
    int d = lo.length;
    double[] x = test.x().clone();
    for (int i = 0; i < x.length; i++) {
      int j = i % d;
      x[i] = Math.min(Math.max(x[i], lo[j]), hi[j]);
    }
    return new RegressionData(x, test.n(), d, test.y());
  }

  /**
   * Predictive moments at the rows of {@code test} from {@code atEdge}, the model's at {@link #clamp clamp(test)}:
   * where a row lies outside the range, f at its edge point c is taken as known to the model, N(μ_c, s_c²) with s_c²
   * = v_c − σₙ², and f at the row follows from it by the zero-mean SE prior (Rasmussen &amp; Williams 2006, eq.
   * A.6, Gaussian conditioning): with ρ = exp(−½ Σⱼ (xⱼ − cⱼ)²/ℓⱼ²), the correlation of f(x) and f(c),
   *
   * <pre>  mean = ρ μ_c,   variance = ρ² s_c² + σ²(1 − ρ²) + σₙ².</pre>
   *
   * At the edge (ρ = 1) this is the model's own prediction; far from it the prior's, N(0, σ² + σₙ²), as the exact
   * GP's prediction far from its data. It conditions on the edge alone, not on the rows beyond it. Rows inside the
   * range keep {@code atEdge}'s moments.
   *
   * @param lengthscales ℓ, one per input, in the units of {@code test}
   * @param signalVariance σ², the SE prior's
   * @param noiseVariance σₙ², included in {@code atEdge}'s variances
   */
  public PredictiveMoments revert(
      RegressionData test,
      PredictiveMoments atEdge,
      double[] lengthscales,
      double signalVariance,
      double noiseVariance) {
    check(test);
    int n = test.n();
    int d = lo.length;
    if (atEdge.mean().length != n || lengthscales.length != d) {
      throw new IllegalArgumentException("need " + n + " predictions and " + d
          + " length-scales, got " + atEdge.mean().length + " and " + lengthscales.length);
    }
    double[] mean = atEdge.mean().clone();
    double[] var = atEdge.variance().clone();
    double[] x = test.x();
    for (int i = 0; i < n; i++) {
      double q = 0;
      for (int j = 0; j < d; j++) {
        double v = x[i * d + j];
        double delta = v < lo[j] ? v - lo[j] : v > hi[j] ? v - hi[j] : 0;
        if (delta != 0) {
          q += (delta / lengthscales[j]) * (delta / lengthscales[j]);
        }
      }
      if (q == 0) {
        continue;
      }
      double rho = Math.exp(-0.5 * q);
      double latent = Math.max(var[i] - noiseVariance, 0);
      mean[i] = rho * mean[i];
      var[i] = rho * rho * latent + signalVariance * (1 - rho * rho) + noiseVariance;
    }
    return new PredictiveMoments(mean, var);
  }

  private void check(RegressionData test) {
    if (test.d() != lo.length) {
      throw new IllegalArgumentException(
          "test rows have " + test.d() + " inputs, the training rows " + lo.length);
    }
  }
}
