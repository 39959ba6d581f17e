package org.approxgp.inference;

import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.Predictive;
import org.approxgp.linalg.Matrix;

/**
 * Gaussian predictive distribution of the latent f* at test inputs: N(mean_i, variance_i) per point.
 */
public record Prediction(double[] latentMean, double[] latentVariance) {

  /**
   * The latent prediction of a posterior on inducing variables in whitened coordinates v = L_uu⁻¹(u − m₀), q(v) with
   * mean {@code mean}: E[f*] = m₀ + a*ᵀmean, Var[f*] = max(0, k** − ‖a*‖²) + ‖w*‖², with a* the columns of {@code a}
   * (M × t, L_uu⁻¹ k_u(x*)) and w* those of {@code w} (M × t, a square root of Cov[v] applied to a*: L_B⁻¹a* for
   * {@link SparsePosterior}, Cᵀa* for {@link SvgpPosterior}); {@code kss} the prior variances k(x*, x*).
   */
  static Prediction whitened(double m0, double[] mean, Matrix a, Matrix w, double[] kss) {
    int t = a.cols();
    int m = mean.length;
    double[] ad = a.data();
    double[] wd = w.data();
    double[] mu = new double[t];
    double[] var = new double[t];
    for (int j = 0; j < t; j++) {
      double s = m0;
      double qa = 0;
      double qw = 0;
      for (int r = 0; r < m; r++) {
        double x = ad[r * t + j];
        s += x * mean[r];
        qa += x * x;
        double v = wd[r * t + j];
        qw += v * v;
      }
      mu[j] = s;
      var[j] = Math.max(0.0, kss[j] - qa) + qw;
    }
    return new Prediction(mu, var);
  }

  public int size() {
    return latentMean.length;
  }

  /**
   * Mean and variance of y* under {@code likelihood}'s predictive distribution ∫ p(y* | f*) N(f* | mean, variance)
   * df* at each point ({@link Likelihood#predictive}; for probit E[y*] = 2p − 1): what every latent GP's
   * {@link FittedModel#predictY} returns.
   */
  public PredictiveMoments observed(Likelihood likelihood) {
    double[] m = new double[size()];
    double[] v = new double[size()];
    for (int j = 0; j < m.length; j++) {
      Predictive q = likelihood.predictive(latentMean[j], latentVariance[j]);
      m[j] = q.mean();
      v[j] = q.variance();
    }
    return new PredictiveMoments(m, v);
  }

  /** log p(yⱼ | D) = log ∫ p(yⱼ | f*) N(f* | meanⱼ, varianceⱼ) df* for observed targets ({@link Likelihood#logPredictive}). */
  public double[] logPredictive(Likelihood likelihood, double[] y) {
    if (y.length != size()) {
      throw new IllegalArgumentException(y.length + " targets for " + size() + " predictions");
    }
    double[] out = new double[y.length];
    for (int j = 0; j < y.length; j++) {
      out[j] = likelihood.logPredictive(y[j], latentMean[j], latentVariance[j]);
    }
    return out;
  }
}
