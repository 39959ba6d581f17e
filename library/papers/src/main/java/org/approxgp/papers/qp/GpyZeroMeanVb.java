package org.approxgp.papers.qp;

import org.approxgp.kernel.Kernel;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.optimize.Lbfgs;
import org.approxgp.special.Gammas;

/**
 * The QP authors' VB on the coal data, as GPy's {@code GPVariationalGaussianApproximation} runs it
 * (Opper &amp; Archambeau 2009; GPy's {@code VarGauss}): no mean function, q(f) = N(Kα, Σ),
 * Σ = (K⁻¹ + diag(β²))⁻¹, started at α = 0, β = 1, and α, β and the kernel's hyperparameters optimised
 * jointly by L-BFGS. With the square link p(y | f) = p(y | −f), so at α = 0 the ELBO's gradient in α is 0
 * (E_q[log p] is even in the mean) and α never leaves 0: the fit is a zero-mean posterior and only β and
 * θ move. This class runs exactly that restricted problem (α ≡ 0), which the general natural-gradient
 * {@link org.approxgp.inference.Vb} cannot: at m = 0 most site precisions want to be negative
 * (∂E/∂v = y/v − 1 &gt; 0 for v &lt; y) and sit on GPy's bound λ = β² = 0, where its fixed point
 * oscillates.
 *
 * <p>ELBO at α = 0 (E_{N(0,v)}[log f²] = log v + ψ(½) + log 2, the mean of log χ²₁):
 * <pre>
 * F = Σᵢ [yᵢ (log Σᵢᵢ + ψ(½) + log 2) − Σᵢᵢ − log yᵢ!] − ½ log|B| + ½ Σᵢ λᵢ Σᵢᵢ,
 * B = I + Λ½ K Λ½,  R = Λ½ B⁻¹ Λ½,  Σ = K − K R K,  λ = β²
 * ∂F/∂λⱼ = −Σᵢ Σᵢⱼ² (gᵢ + ½ λᵢ),  gᵢ = yᵢ/Σᵢᵢ − 1,   ∂F/∂βⱼ = 2 βⱼ ∂F/∂λⱼ
 * ∂F/∂θ = tr(∂K/∂θ · W),  W = A diag(g) Aᵀ − ½ R K R,  A = I − R K
 * </pre>
 * (the same algebra as {@link org.approxgp.inference.Vb}'s class comment with α = 0; checked against
 * central differences in {@code GpyZeroMeanVbTest}). GPy evaluates E_q[log f²] by 20-point Gauss–Hermite
 * quadrature, which is log v plus a different constant: the optimum is the same, the reported ELBO differs
 * by a constant per nonzero count.
 */
final class GpyZeroMeanVb {
  /** ψ(½) + log 2 = −γ − log 2: E[log χ²₁]. */
  static final double LOG_CHI2_MEAN = -0.5772156649015329 - Math.log(2);

  private GpyZeroMeanVb() {}

  /**
   * The result of a fit.
   *
   * @param kernel    the learnt kernel
   * @param beta      the learnt β (site precisions β²)
   * @param elbo      F at the optimum
   * @param optimizer L-BFGS's result (iterations, status)
   */
  record Fit(Kernel kernel, double[][] x, double[] beta, double elbo, Lbfgs.Result optimizer) {
    /** Latent predictive variances σ*² = k** − k*ᵀ R k* at {@code xTest} (the predictive mean is 0). */
    double[] predictiveVariance(double[][] xTest) {
      double[] s = abs(beta);
      Matrix k = kernel.matrix(x);
      Cholesky l = Cholesky.factor(bMatrix(k, s), JitterPolicy.none());
      Matrix kx = kernel.cross(x, xTest); // n × m
      kx.scaleRowsCols(s, ones(xTest.length));
      Matrix v = l.solveLower(kx);
      double[] kss = kernel.diagonal(xTest);
      double[] out = new double[xTest.length];
      for (int j = 0; j < xTest.length; j++) {
        double q = 0;
        for (int i = 0; i < x.length; i++) {
          q += v.get(i, j) * v.get(i, j);
        }
        out[j] = Math.max(kss[j] - q, 0);
      }
      return out;
    }

    /** Sites with β² below 1e-8 (at GPy's bound λ = 0). */
    long atBound() {
      long c = 0;
      for (double b : beta) {
        if (b * b < 1e-8) {
          c++;
        }
      }
      return c;
    }
  }

  /** F and its gradients at (β, θ). */
  record Eval(double elbo, double[] gradBeta, double[] gradTheta) {}

  /** Joint L-BFGS over (β, log θ) from β = 1 and the given kernel (GPy's start: RBF ℓ = 1, σ_f² = 1). */
  static Fit fit(Kernel k0, double[][] x, double[] y, Lbfgs.Settings settings) {
    int n = x.length;
    int p = k0.size();
    double[] x0 = new double[n + p];
    java.util.Arrays.fill(x0, 0, n, 1.0);
    System.arraycopy(k0.logHyperparameters(), 0, x0, n, p);
    Lbfgs.Result r = Lbfgs.minimize(
        (z, grad) -> {
          double[] beta = java.util.Arrays.copyOf(z, n);
          Eval e;
          try {
            // inside the try: a line-search trial far out in log θ overflows exp to a length-scale
            // or
            // variance the kernel refuses, and the line search must back off from it like from any
            // other failed evaluation
            Kernel k = k0.withLogHyperparameters(java.util.Arrays.copyOfRange(z, n, n + p));
            e = evaluate(k, x, y, beta);
          } catch (RuntimeException ex) {
            return Double.POSITIVE_INFINITY;
          }
          if (!Double.isFinite(e.elbo())) {
            return Double.POSITIVE_INFINITY;
          }
          for (int i = 0; i < n; i++) {
            grad[i] = -e.gradBeta()[i];
          }
          for (int j = 0; j < p; j++) {
            grad[n + j] = -e.gradTheta()[j];
          }
          return -e.elbo();
        },
        x0,
        settings);
    double[] beta = java.util.Arrays.copyOf(r.x(), n);
    Kernel k = k0.withLogHyperparameters(java.util.Arrays.copyOfRange(r.x(), n, n + p));
    return new Fit(k, x, beta, evaluate(k, x, y, beta).elbo(), r);
  }

  /** F, ∂F/∂β and ∂F/∂(log θ) (see the class comment). */
  static Eval evaluate(Kernel kernel, double[][] x, double[] y, double[] beta) {
    int n = x.length;
    double[] s = abs(beta);
    Matrix k = kernel.matrix(x);
    Cholesky l = Cholesky.factor(bMatrix(k, s), JitterPolicy.none());
    Matrix sk = k.copy();
    sk.scaleRowsCols(s, ones(n));
    Matrix v = l.solveLower(sk); // L⁻¹ S K
    Matrix sigma = k.copy();
    Matrix vtv = v.multTransA(v);
    Matrix rk = l.solveUpper(v); // B⁻¹ S K, then S B⁻¹ S K = R K
    rk.scaleRowsCols(s, ones(n));
    double f = -0.5 * l.logDet();
    double[] g = new double[n];
    double[] h = new double[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        sigma.set(i, j, k.get(i, j) - vtv.get(i, j));
      }
    }
    for (int i = 0; i < n; i++) {
      double sii = sigma.get(i, i);
      double lambda = beta[i] * beta[i];
      f += (y[i] == 0 ? 0 : y[i] * (Math.log(sii) + LOG_CHI2_MEAN))
          - sii
          - Gammas.logGamma(y[i] + 1)
          + 0.5 * lambda * sii;
      g[i] = y[i] / sii - 1;
      h[i] = g[i] + 0.5 * lambda;
    }
    double[] gradBeta = new double[n];
    for (int j = 0; j < n; j++) {
      double d = 0;
      for (int i = 0; i < n; i++) {
        double sij = sigma.get(i, j);
        d -= sij * sij * h[i];
      }
      gradBeta[j] = 2 * beta[j] * d;
    }
    // W = A diag(g) Aᵀ − ½ R K R,  A = I − R K
    Matrix a = rk.copy();
    a.scale(-1);
    a.addDiagonal(1);
    Matrix ag = a.copy();
    ag.scaleRowsCols(ones(n), g);
    Matrix w = ag.multTransB(a);
    Matrix r = l.inverse();
    r.scaleRowsCols(s, s);
    Matrix rkr = rk.mult(r);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        w.set(i, j, w.get(i, j) - 0.5 * rkr.get(i, j));
      }
    }
    // symmetrise against roundoff
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < i; j++) {
        double m = 0.5 * (w.get(i, j) + w.get(j, i));
        w.set(i, j, m);
        w.set(j, i, m);
      }
    }
    return new Eval(f, gradBeta, kernel.traceGradient(x, w));
  }

  private static Matrix bMatrix(Matrix k, double[] s) {
    Matrix b = k.copy();
    b.scaleRowsCols(s, s);
    b.addDiagonal(1);
    return b;
  }

  private static double[] abs(double[] v) {
    double[] a = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      a[i] = Math.abs(v[i]);
    }
    return a;
  }

  private static double[] ones(int n) {
    double[] o = new double[n];
    java.util.Arrays.fill(o, 1.0);
    return o;
  }
}
