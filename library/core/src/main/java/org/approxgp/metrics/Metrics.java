package org.approxgp.metrics;

/** Evaluation metrics over test points. All inputs are validated; empty inputs are an error. */
public final class Metrics {
  private Metrics() {}

  private static void check(int a, int b) {
    if (a != b) {
      throw new IllegalArgumentException("length mismatch: " + a + " vs " + b);
    }
    if (a == 0) {
      throw new IllegalArgumentException("no test points");
    }
  }

  /**
   * Test error of binary predictions: the fraction of points whose predicted class (+1 when
   * p(y = +1) &gt; ½, −1 when &lt; ½) differs from the label; a tie p = ½ counts as half an error.
   */
  public static double testError(double[] pPositive, double[] labels) {
    check(pPositive.length, labels.length);
    double e = 0;
    for (int i = 0; i < labels.length; i++) {
      if (pPositive[i] == 0.5) {
        e += 0.5;
      } else if ((pPositive[i] > 0.5) != (labels[i] > 0)) {
        e += 1;
      }
    }
    return e / labels.length;
  }

  /**
   * Mean absolute error (1/m) Σ |y_i − ŷ_i|: the QP paper's test error for counts, with ŷ the predictive mode
   * (§6.2).
   */
  public static double meanAbsoluteError(double[] predicted, double[] observed) {
    check(predicted.length, observed.length);
    double s = 0;
    for (int i = 0; i < observed.length; i++) {
      s += Math.abs(observed[i] - predicted[i]);
    }
    return s / observed.length;
  }

  /** Negative test log-likelihood: −(1/m) Σ log p(y*_i | D). */
  public static double negativeLogLikelihood(double[] logPredictive) {
    check(logPredictive.length, logPredictive.length);
    double s = 0;
    for (double v : logPredictive) {
      s += v;
    }
    return -s / logPredictive.length;
  }

  /**
   * Root-mean-square error √((1/m) Σ (y_i − ŷ_i)²), the one implementation every model's RMSE uses. Where a square
   * overflows (errors beyond about 1e154) the same sum over e / max|e|, as hypot does.
   */
  public static double rmse(double[] predicted, double[] observed) {
    check(predicted.length, observed.length);
    double s = 0;
    for (int i = 0; i < observed.length; i++) {
      double e = observed[i] - predicted[i];
      s += e * e;
    }
    if (Double.isInfinite(s)) {
      double k = 0;
      for (int i = 0; i < observed.length; i++) {
        k = Math.max(k, Math.abs(observed[i] - predicted[i]));
      }
      double t = 0;
      for (int i = 0; i < observed.length; i++) {
        double e = (observed[i] - predicted[i]) / k;
        t += e * e;
      }
      return Math.sqrt(t / observed.length) * k;
    }
    return Math.sqrt(s / observed.length);
  }

  /**
   * Mean negative log probability of observed values under Gaussian predictions N(mean, var) (the sVBSSGP paper's
   * MNLP, §5): (1/m) Σ ½ [log(2π var_i) + (y_i − mean_i)²/var_i], the one implementation every model's MNLP uses;
   * −(1/m) Σ {@link #gaussianLogDensities} to the last bit.
   */
  public static double mnlp(double[] mean, double[] variance, double[] observed) {
    check(mean.length, observed.length);
    check(variance.length, observed.length);
    double s = 0;
    for (int i = 0; i < observed.length; i++) {
      s += halfSquaredError(mean[i], variance[i], observed[i]);
    }
    return s / observed.length;
  }

  /** log N(y_i | mean_i, var_i) at each point: −½ [log(2π var_i) + (y_i − mean_i)²/var_i]. */
  public static double[] gaussianLogDensities(double[] mean, double[] variance, double[] observed) {
    check(mean.length, observed.length);
    check(variance.length, observed.length);
    double[] out = new double[observed.length];
    for (int i = 0; i < observed.length; i++) {
      out[i] = -halfSquaredError(mean[i], variance[i], observed[i]);
    }
    return out;
  }

  /** ½ [log(2π v) + (y − μ)²/v], with (y − μ)/√v where (y − μ)² overflows but the standardised error need not. */
  private static double halfSquaredError(double mu, double v, double y) {
    double e = y - mu;
    double z2 = e * e / v;
    if (Double.isInfinite(e * e) && Double.isFinite(v)) {
      double z = e / Math.sqrt(v);
      z2 = z * z;
    }
    return 0.5 * (Math.log(2 * Math.PI * v) + z2);
  }

  /** L2-Wasserstein distance between N(m1, v1) and N(m2, v2): √((m1 − m2)² + (√v1 − √v2)²). */
  public static double wasserstein2Gaussian(double m1, double v1, double m2, double v2) {
    double ds = Math.sqrt(v1) - Math.sqrt(v2);
    return Math.sqrt((m1 - m2) * (m1 - m2) + ds * ds);
  }
}
