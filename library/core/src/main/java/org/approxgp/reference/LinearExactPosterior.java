package org.approxgp.reference;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.special.Quadrature;

/**
 * The exact posterior of the weights of a two-dimensional linear model without bias, the problem of Fig. 1 of
 * Qi &amp; Guo, "Message passing with relaxed moment matching" (REP, §6.1): a GP with the linear kernel
 * k(x, x') = σ² xᵀx' on inputs x ∈ ℝ² is f(x) = wᵀx with w ~ N(0, σ² I₂), so
 * <pre>
 *   p(w | D) = N(w | 0, σ² I) Πᵢ p(yᵢ | wᵀxᵢ) / Z,   Z = ∫ N(w | 0, σ² I) Πᵢ p(yᵢ | wᵀxᵢ) dw,
 * </pre>
 * for any {@link Likelihood} (the figure uses the noisy step, ε = 0.2). Its mean, covariance and log evidence
 * log Z are two-dimensional integrals, computed two independent ways:
 * <ul>
 *   <li>{@link #quadrature()}: polar coordinates w = r (cos θ, sin θ). For fixed θ the radial integrals
 *       ∫₀^∞ r h(r, θ) N(r u(θ) | 0, σ² I) Π p(yᵢ | r cᵢ(θ)) dr (cᵢ = xᵢᵀu) are done by adaptive Gauss–Kronrod
 *       in ρ = r/σ, split at ρ = 1, 3 and where r cᵢ(θ) crosses a breakpoint of the likelihood; the θ integral
 *       over [0, 2π) by adaptive Gauss–Kronrod split at the angles where some cᵢ(θ) = 0. For a step likelihood
 *       the integrand depends on θ only through which side of each line wᵀxᵢ = 0 it lies on, so those splits
 *       are exactly its jumps and every piece is smooth. The covariance is integrated centred at the mean
 *       (a second pass), so it does not cancel when the mean is large.</li>
 *   <li>{@link #importanceSampling(long, long)}: the prior as proposal (as the REP paper's "exact" posterior,
 *       which used 10⁸ samples; the proposal is not stated there), self-normalised, with Monte-Carlo standard
 *       errors by the delta method: for θ̂ = Σ W h / Σ W, se² = Σ W² (h − θ̂)² / (Σ W)²; for log Ẑ,
 *       se = sd(W) / (√S mean W). Seeded (commons-rng XO_RO_SHI_RO_128_PP, Ziggurat normals); the samples are
 *       regenerated from the seed for the second (centred) pass, so memory does not grow with S.</li>
 * </ul>
 * The integrands are scaled by exp(−c), c the largest log integrand found on a 720 × 40 polar grid, so
 * nothing under- or overflows for a handful of points. Immutable.
 */
public final class LinearExactPosterior {
  private static final double TWO_PI = 2 * Math.PI;
  /** Default relative tolerance of the nested quadrature. */
  public static final double DEFAULT_REL_TOL = 1e-11;

  private final double[][] x;
  private final double[] y;
  private final double priorVariance;
  private final Likelihood likelihood;

  private LinearExactPosterior(
      double[][] x, double[] y, double priorVariance, Likelihood likelihood) {
    if (x.length != y.length || x.length == 0) {
      throw new IllegalArgumentException("need as many labels as inputs (at least one), got "
          + x.length + " inputs and " + y.length + " labels");
    }
    if (!(priorVariance > 0) || !Double.isFinite(priorVariance)) {
      throw new IllegalArgumentException(
          "prior variance must be positive and finite, got " + priorVariance);
    }
    this.x = new double[x.length][];
    for (int i = 0; i < x.length; i++) {
      if (x[i].length != 2 || !Double.isFinite(x[i][0]) || !Double.isFinite(x[i][1])) {
        throw new IllegalArgumentException(
            "input " + i + " must be a finite point in 2-D, got " + Arrays.toString(x[i]));
      }
      likelihood.validate(y[i]);
      this.x[i] = x[i].clone();
    }
    this.y = y.clone();
    this.priorVariance = priorVariance;
    this.likelihood = likelihood;
  }

  /**
   * The problem: inputs x (n × 2), targets y, prior w ~ N(0, σ² I₂) (the linear kernel σ² xᵀx'), likelihood.
   *
   * @throws IllegalArgumentException on mismatched sizes, non-finite inputs, σ² ≤ 0 or an invalid target
   */
  public static LinearExactPosterior of(
      double[][] x, double[] y, double priorVariance, Likelihood likelihood) {
    return new LinearExactPosterior(x, y, priorVariance, likelihood);
  }

  /**
   * Posterior moments of w and the log evidence, with error estimates (quadrature: the integrator's estimate
   * propagated; importance sampling: Monte-Carlo standard errors).
   *
   * @param logEvidence log Z
   * @param mean E[w] (2)
   * @param covariance Cov[w] (2 × 2)
   * @param logEvidenceError error estimate of log Z
   * @param meanError error estimates of the mean
   * @param covarianceError error estimates of the covariance entries
   * @param samples number of importance samples (0 for quadrature)
   * @param effectiveSampleSize (Σ W)² / Σ W² of the importance weights (NaN for quadrature)
   * @param method "quadrature" or "importance-sampling(seed=...)"
   */
  public record Estimate(
      double logEvidence,
      double[] mean,
      double[][] covariance,
      double logEvidenceError,
      double[] meanError,
      double[][] covarianceError,
      long samples,
      double effectiveSampleSize,
      String method) {
    public Estimate {
      mean = mean.clone();
      meanError = meanError.clone();
      covariance = new double[][] {covariance[0].clone(), covariance[1].clone()};
      covarianceError = new double[][] {covarianceError[0].clone(), covarianceError[1].clone()};
    }

    @Override
    public double[] mean() {
      return mean.clone();
    }

    @Override
    public double[] meanError() {
      return meanError.clone();
    }

    @Override
    public double[][] covariance() {
      return new double[][] {covariance[0].clone(), covariance[1].clone()};
    }

    @Override
    public double[][] covarianceError() {
      return new double[][] {covarianceError[0].clone(), covarianceError[1].clone()};
    }

    @Override
    public String toString() {
      return String.format(
          java.util.Locale.ROOT,
          "%s: log Z = %.12g ± %.2g, mean = (%.12g, %.12g) ± (%.2g, %.2g), cov = [[%.12g, %.12g], [%.12g, %.12g]]",
          method,
          logEvidence,
          logEvidenceError,
          mean[0],
          mean[1],
          meanError[0],
          meanError[1],
          covariance[0][0],
          covariance[0][1],
          covariance[1][0],
          covariance[1][1]);
    }
  }

  /** log N(w | 0, σ² I) + Σ log p(yᵢ | wᵀxᵢ) at w = (w1, w2). */
  double logIntegrand(double w1, double w2) {
    double s = -(w1 * w1 + w2 * w2) / (2 * priorVariance) - Math.log(TWO_PI * priorVariance);
    for (int i = 0; i < x.length; i++) {
      s += likelihood.logDensity(y[i], w1 * x[i][0] + w2 * x[i][1]).value();
    }
    return s;
  }

  /** {@link #quadrature(double)} with relative tolerance {@value #DEFAULT_REL_TOL}. */
  public Estimate quadrature() {
    return quadrature(DEFAULT_REL_TOL);
  }

  /**
   * The exact moments by nested adaptive quadrature in polar coordinates (class comment).
   *
   * @param relTol relative tolerance of each one-dimensional integral, in (0, 1e-3]
   * @throws ArithmeticException if an integral does not converge
   */
  public Estimate quadrature(double relTol) {
    if (!(relTol > 0 && relTol <= 1e-3)) {
      throw new IllegalArgumentException("relative tolerance must be in (0, 1e-3], got " + relTol);
    }
    double shift = gridMax();
    double sigma = Math.sqrt(priorVariance);
    double[] angles = angularBreakpoints();
    // pass 1: Z e^{-c} = ∫dθ ∫ r e^{ℓ − c} dr, and ∫ w e^{ℓ − c}
    Quadrature.Result z =
        outer(theta -> radial(theta, shift, sigma, relTol, r -> 1), angles, relTol);
    Quadrature.Result m1 = outer(
        theta -> Math.cos(theta) * radial(theta, shift, sigma, relTol, r -> r), angles, relTol);
    Quadrature.Result m2 = outer(
        theta -> Math.sin(theta) * radial(theta, shift, sigma, relTol, r -> r), angles, relTol);
    double zv = z.value();
    double[] mean = {m1.value() / zv, m2.value() / zv};
    // pass 2: centred second moments
    double[][] cov = new double[2][2];
    double[][] covErr = new double[2][2];
    for (int a = 0; a < 2; a++) {
      for (int b = a; b < 2; b++) {
        final int fa = a;
        final int fb = b;
        Quadrature.Result q = outer(
            theta -> {
              double[] u = {Math.cos(theta), Math.sin(theta)};
              return radial(
                  theta,
                  shift,
                  sigma,
                  relTol,
                  r -> (r * u[fa] - mean[fa]) * (r * u[fb] - mean[fb]));
            },
            angles,
            relTol);
        cov[a][b] = q.value() / zv;
        cov[b][a] = cov[a][b];
        covErr[a][b] = (q.errorEstimate() + Math.abs(cov[a][b]) * z.errorEstimate()) / zv;
        covErr[b][a] = covErr[a][b];
      }
    }
    // error of a ratio N/Z: (δN + |N/Z| δZ)/Z
    double[] meanErr = {
      (m1.errorEstimate() + Math.abs(mean[0]) * z.errorEstimate()) / zv,
      (m2.errorEstimate() + Math.abs(mean[1]) * z.errorEstimate()) / zv
    };
    return new Estimate(
        shift + Math.log(zv),
        mean,
        cov,
        z.errorEstimate() / zv,
        meanErr,
        covErr,
        0,
        Double.NaN,
        "quadrature(relTol=" + relTol + ")");
  }

  /** ∫₀^{2π} g(θ) dθ split at the given angles. */
  private static Quadrature.Result outer(DoubleUnaryOperator g, double[] angles, double relTol) {
    Quadrature.Result q = Quadrature.integrate(g, 0, TWO_PI, 0, relTol, angles);
    if (!q.converged() || !Double.isFinite(q.value())) {
      throw new ArithmeticException("angular integral did not converge: " + q);
    }
    return q;
  }

  /**
   * ∫₀^∞ r h(r) exp(ℓ(r u(θ)) − c) dr, in ρ = r/σ, split at ρ = 1, 3 and at the radii where r cᵢ(θ) meets a
   * breakpoint of the likelihood.
   */
  private double radial(
      double theta, double shift, double sigma, double relTol, DoubleUnaryOperator h) {
    double ct = Math.cos(theta);
    double st = Math.sin(theta);
    double[] cuts = radialBreakpoints(ct, st, sigma);
    DoubleUnaryOperator g = rho -> {
      double r = sigma * rho;
      double l = logIntegrand(r * ct, r * st) - shift;
      return l == Double.NEGATIVE_INFINITY ? 0 : sigma * r * h.applyAsDouble(r) * Math.exp(l);
    };
    Quadrature.Result q = Quadrature.integrate(g, 0, Double.POSITIVE_INFINITY, 0, relTol, cuts);
    if (!q.converged() || !Double.isFinite(q.value())) {
      throw new ArithmeticException(
          "radial integral did not converge at theta = " + theta + ": " + q);
    }
    return q.value();
  }

  private double[] radialBreakpoints(double ct, double st, double sigma) {
    double[] out = new double[2 + 4 * x.length];
    int k = 0;
    out[k++] = 1;
    out[k++] = 3;
    for (int i = 0; i < x.length; i++) {
      double c = x[i][0] * ct + x[i][1] * st;
      for (double b : likelihood.breakpoints(y[i])) {
        double r = b / c;
        if (c != 0 && r > 0 && Double.isFinite(r)) {
          if (k == out.length) {
            out = Arrays.copyOf(out, 2 * k);
          }
          out[k++] = r / sigma;
        }
      }
    }
    return Arrays.copyOf(out, k);
  }

  /** The angles in (0, 2π) where xᵢᵀu(θ) = 0: θ = atan2(−x₁, x₂) and that + π. */
  double[] angularBreakpoints() {
    double[] a = new double[2 * x.length];
    for (int i = 0; i < x.length; i++) {
      double t = Math.atan2(-x[i][0], x[i][1]);
      if (t < 0) {
        t += Math.PI;
      }
      a[2 * i] = t;
      a[2 * i + 1] = t + Math.PI;
    }
    return a;
  }

  /** The largest log integrand on a polar grid (θ every ½°, ρ = r/σ in 0.1 … 6). */
  private double gridMax() {
    double sigma = Math.sqrt(priorVariance);
    double best = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < 720; i++) {
      double t = TWO_PI * (i + 0.5) / 720;
      for (int j = 0; j < 40; j++) {
        double r = sigma * 0.15 * (j + 0.5);
        best = Math.max(best, logIntegrand(r * Math.cos(t), r * Math.sin(t)));
      }
    }
    if (!Double.isFinite(best)) {
      throw new ArithmeticException("the posterior density is zero on the whole search grid");
    }
    return best;
  }

  /**
   * Self-normalised importance sampling with the prior N(0, σ² I) as proposal (class comment).
   *
   * @param samples number of samples S ≥ 2
   * @param seed seed of the random stream (the same seed gives bit-identical results)
   */
  public Estimate importanceSampling(long samples, long seed) {
    if (samples < 2) {
      throw new IllegalArgumentException("need at least 2 samples, got " + samples);
    }
    double sigma = Math.sqrt(priorVariance);
    // pass 1: Σ W, Σ W², Σ W w with W = exp(log w − max) for the running max (sums rescaled when it
    // grows)
    double max = Double.NEGATIVE_INFINITY;
    double sw = 0;
    double sw2 = 0;
    double[] swm = new double[2];
    Stream s = new Stream(seed, sigma);
    for (long k = 0; k < samples; k++) {
      s.next();
      double lw = logWeight(s.w1, s.w2);
      if (lw > max) {
        double f = Math.exp(max - lw);
        sw *= f;
        sw2 *= f * f;
        swm[0] *= f;
        swm[1] *= f;
        max = lw;
      }
      double wt = Math.exp(lw - max);
      sw += wt;
      sw2 += wt * wt;
      swm[0] += wt * s.w1;
      swm[1] += wt * s.w2;
    }
    if (!Double.isFinite(max)) {
      throw new ArithmeticException("every importance weight is zero");
    }
    double[] mean = {swm[0] / sw, swm[1] / sw};
    // pass 2 (same stream, same max): centred second moments, Σ W² (w − μ)², and Σ W² h, Σ W² h² of
    // each
    // centred product h, so that Σ W² (h − C)² = Σ W² h² − 2 C Σ W² h + C² Σ W² without a third
    // pass
    double[][] cov = new double[2][2];
    double[] meanVar = new double[2];
    double[] w2h = new double[3];
    double[] w2hh = new double[3];
    s = new Stream(seed, sigma);
    for (long k = 0; k < samples; k++) {
      s.next();
      double wt = Math.exp(logWeight(s.w1, s.w2) - max);
      double d1 = s.w1 - mean[0];
      double d2 = s.w2 - mean[1];
      double[] h = {d1 * d1, d1 * d2, d2 * d2};
      cov[0][0] += wt * h[0];
      cov[0][1] += wt * h[1];
      cov[1][1] += wt * h[2];
      meanVar[0] += wt * wt * h[0];
      meanVar[1] += wt * wt * h[2];
      for (int j = 0; j < 3; j++) {
        w2h[j] += wt * wt * h[j];
        w2hh[j] += wt * wt * h[j] * h[j];
      }
    }
    cov[0][0] /= sw;
    cov[0][1] /= sw;
    cov[1][1] /= sw;
    cov[1][0] = cov[0][1];
    double[] c = {cov[0][0], cov[0][1], cov[1][1]};
    double[][] covVar = new double[2][2];
    double[] cv = new double[3];
    for (int j = 0; j < 3; j++) {
      cv[j] = Math.max(0, w2hh[j] - 2 * c[j] * w2h[j] + c[j] * c[j] * sw2);
    }
    covVar[0][0] = cv[0];
    covVar[0][1] = cv[1];
    covVar[1][1] = cv[2];
    double[][] covErr = {
      {Math.sqrt(covVar[0][0]) / sw, Math.sqrt(covVar[0][1]) / sw},
      {Math.sqrt(covVar[0][1]) / sw, Math.sqrt(covVar[1][1]) / sw}
    };
    double[] meanErr = {Math.sqrt(meanVar[0]) / sw, Math.sqrt(meanVar[1]) / sw};
    double n = samples;
    double meanW = sw / n;
    double varW = Math.max(0, sw2 / n - meanW * meanW) * n / (n - 1);
    double logZ = max + Math.log(meanW);
    double logZErr = Math.sqrt(varW / n) / meanW;
    return new Estimate(
        logZ,
        mean,
        cov,
        logZErr,
        meanErr,
        covErr,
        samples,
        sw * sw / sw2,
        "importance-sampling(samples=" + samples + ", seed=" + seed + ")");
  }

  /** Σᵢ log p(yᵢ | wᵀxᵢ): the log importance weight of a prior sample. */
  private double logWeight(double w1, double w2) {
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      s += likelihood.logDensity(y[i], w1 * x[i][0] + w2 * x[i][1]).value();
    }
    return s;
  }

  /** The seeded stream of prior samples w = σ (z₁, z₂). */
  private static final class Stream {
    private final ZigguratSampler.NormalizedGaussian z;
    private final double sigma;
    double w1;
    double w2;

    Stream(long seed, double sigma) {
      UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
      this.z = ZigguratSampler.NormalizedGaussian.of(rng);
      this.sigma = sigma;
    }

    void next() {
      w1 = sigma * z.sample();
      w2 = sigma * z.sample();
    }
  }
}
