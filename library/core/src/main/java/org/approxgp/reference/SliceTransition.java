package org.approxgp.reference;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.approxgp.inference.Problem;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/**
 * One elliptical slice sampling transition (I. Murray, R. P. Adams &amp; D. J. C. MacKay, "Elliptical slice
 * sampling", AISTATS 2010, Fig. 2) for π_β(f) ∝ q(f) exp(β ℓ(f)), q a {@link GaussianReference} and
 * ℓ = log p* − log q the residual (p* the unnormalised posterior). β = 1 is the posterior; β ∈ [0, 1) are the
 * intermediate distributions of annealed importance sampling. Coordinates: u = L_K⁻¹ (f − m₀) whitens the prior,
 * v ~ N(0, I) whitens q, u = u_q + A v, f = m₀ + L_K u. A transition from v:
 * <pre>
 *   z ~ N(0, I);  log h = β ℓ(v) + log u₀, u₀ ~ U(0, 1);  θ ~ U[0, 2π], bracket [θ − 2π, θ];
 *   loop: v' = v cos θ + z sin θ; if β ℓ(v') &gt; log h accept; else shrink the bracket towards 0, θ ~ U(bracket).
 * </pre>
 * The residual, constants kept so that E_q[exp ℓ] = Z (the prior's density in u is N(u | 0, I)/|L_K|, q's is
 * N(v | 0, I)/|L_K A|):
 * <pre>
 *   ℓ(v) = −½ |u|² + ½ |v|² + log |A| + Σᵢ log p(yᵢ | fᵢ).
 * </pre>
 * Because u and f are linear in v, one transition costs two triangular products (A z, then L_K A z) and O(n)
 * per point tried on the ellipse. With q the prior, A = I, u = v and ℓ is the log likelihood (plain elliptical
 * slice sampling). K's Cholesky factor uses {@link JitterPolicy#standard()} (the jitter is reported); it enters
 * the prior and q alike. Immutable after construction; each chain brings its own {@link State}.
 *
 * <p>Site sweeps ({@link #sweep}). The ellipse moves every latent at once, and when the posterior differs from q in
 * each of n coordinates (a product of n skewed marginals, as probit with a large signal variance gives) ℓ is a sum
 * of n terms that vary independently: the acceptable arc shrinks like 1/√n and the chain random-walks with small
 * steps. A sweep updates one latent at a time from its exact conditional,
 * <pre>
 *   p(fᵢ | f₋ᵢ, y) ∝ N(fᵢ | cᵢ, sᵢ²) p(yᵢ | fᵢ),  sᵢ² = 1/Pᵢᵢ,  cᵢ = fᵢ − (P (f − m₀))ᵢ / Pᵢᵢ,  P = K⁻¹
 * </pre>
 * (the Gaussian conditional of the prior in precision form, Rasmussen &amp; Williams 2006, eq. A.6), by a
 * one-dimensional elliptical slice transition whose "prior" is N(cᵢ, sᵢ²) and "likelihood" p(yᵢ | fᵢ): only one
 * likelihood term changes per point tried. Each update leaves the posterior invariant, so a sweep in a fixed order
 * does, and so does its composition with the ellipse move. P (f − m₀) is kept up to date by one column per accepted
 * update and recomputed at the start of every sweep, so rounding does not accumulate. After a sweep the ellipse
 * coordinates are recomputed from f (A v = L_K⁻¹ (f − μ_q), then v, by two triangular solves). Sweeps cost O(n²) like
 * an ellipse transition; P is formed once (O(n³)) and only when asked for.
 */
final class SliceTransition {
  private final int n;
  private final double[] lk; // L_K, lower triangle packed by rows
  private final double[]
      a; // A (upper triangular), its upper triangle packed by rows, or null for the prior
  private final double[] muQ; // m₀ + L_K u_q
  private final double[] uq;
  private final double logDetA;
  private final double[] y;
  private final Likelihood likelihood;
  private final double jitter;
  private final double priorMean;
  private final double[] precision; // P = (K + jitter I)⁻¹, row-major, or null without site sweeps

  SliceTransition(Problem problem, GaussianReference q) {
    this(problem, q, false);
  }

  /** With {@code sites}, also forms P = K⁻¹ for {@link #sweep}. */
  SliceTransition(Problem problem, GaussianReference q, boolean sites) {
    this.n = problem.size();
    if (q.whitenedMean().length != n) {
      throw new IllegalArgumentException(
          "the reference has " + q.whitenedMean().length + " entries, the problem " + n);
    }
    Cholesky chol = Cholesky.factor(problem.kernel().matrix(problem.x()), JitterPolicy.standard());
    this.jitter = chol.jitter();
    this.priorMean = problem.priorMean();
    this.precision = sites ? chol.inverse().data().clone() : null;
    Matrix l = chol.lower();
    this.lk = new double[n * (n + 1) / 2];
    int k = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        lk[k++] = l.get(i, j);
      }
    }
    this.uq = q.whitenedMean();
    this.muQ = new double[n];
    multiplyLower(uq, muQ);
    for (int i = 0; i < n; i++) {
      muQ[i] += problem.priorMean();
    }
    Matrix root = q.root();
    this.logDetA = root == null ? 0 : logAbsDetUpper(root);
    this.a = root == null ? null : packUpper(root);
    this.y = problem.y();
    this.likelihood = problem.likelihood();
  }

  /** log |det A| for an upper triangular A; any other root is refused. */
  private static double logAbsDetUpper(Matrix a) {
    int n = a.rows();
    double s = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < i; j++) {
        if (a.get(i, j) != 0) {
          throw new IllegalArgumentException("the reference's root must be upper triangular");
        }
      }
      s += Math.log(Math.abs(a.get(i, i)));
    }
    return s;
  }

  private static double[] packUpper(Matrix a) {
    int n = a.rows();
    double[] p = new double[n * (n + 1) / 2];
    int k = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i; j < n; j++) {
        p[k++] = a.get(i, j);
      }
    }
    return p;
  }

  int size() {
    return n;
  }

  double jitter() {
    return jitter;
  }

  /** One chain's position (v, A v, f − μ_q = L_K A v, ℓ), random stream and work arrays. */
  static final class State {
    final UniformRandomProvider rng;
    final ZigguratSampler.NormalizedGaussian gauss;
    final double[] v;
    final double[] ud;
    final double[] fd;
    final double[] z;
    final double[] uz;
    final double[] fz;
    final double[] f;
    final double[] tv;
    final double[] tud;
    final double[] tfd;
    final double[] g;
    final double[] w;
    double residual;
    long evaluations;

    State(UniformRandomProvider rng, int n) {
      this.rng = rng;
      this.gauss = ZigguratSampler.NormalizedGaussian.of(rng);
      v = new double[n];
      ud = new double[n];
      fd = new double[n];
      z = new double[n];
      uz = new double[n];
      fz = new double[n];
      f = new double[n];
      tv = new double[n];
      tud = new double[n];
      tfd = new double[n];
      g = new double[n];
      w = new double[n];
    }
  }

  /** A new state at v = scale · z, z ~ N(0, I) (scale 1: a draw from q; 2: an over-dispersed start). */
  State start(UniformRandomProvider rng, double scale) {
    State s = new State(rng, n);
    for (int i = 0; i < n; i++) {
      s.v[i] = scale * s.gauss.sample();
    }
    map(s.v, s.ud, s.fd);
    s.residual = residual(s.v, s.ud, s.fd, s.f);
    s.evaluations++;
    if (!Double.isFinite(s.residual)) {
      throw new IllegalArgumentException(
          "the log density at a chain's starting point is " + s.residual);
    }
    return s;
  }

  /** f at the state (into {@code out}). */
  void latent(State s, double[] out) {
    for (int i = 0; i < n; i++) {
      out[i] = muQ[i] + s.fd[i];
    }
  }

  /** ud = A v (v itself for the prior), fd = L_K ud. */
  private void map(double[] v, double[] ud, double[] fd) {
    if (a == null) {
      System.arraycopy(v, 0, ud, 0, n);
    } else {
      int p = 0;
      for (int i = 0; i < n; i++) {
        ud[i] = dot(a, p, v, i, n - i);
        p += n - i;
      }
    }
    multiplyLower(ud, fd);
  }

  private void multiplyLower(double[] z, double[] out) {
    int p = 0;
    for (int i = 0; i < n; i++) {
      out[i] = dot(lk, p, z, 0, i + 1);
      p += i + 1;
    }
  }

  /** Σ_{k < len} x[xo + k] z[zo + k] with four partial sums (the loop is otherwise bound by the add latency). */
  private static double dot(double[] x, int xo, double[] z, int zo, int len) {
    double s0 = 0;
    double s1 = 0;
    double s2 = 0;
    double s3 = 0;
    int k = 0;
    for (; k + 3 < len; k += 4) {
      s0 += x[xo + k] * z[zo + k];
      s1 += x[xo + k + 1] * z[zo + k + 1];
      s2 += x[xo + k + 2] * z[zo + k + 2];
      s3 += x[xo + k + 3] * z[zo + k + 3];
    }
    for (; k < len; k++) {
      s0 += x[xo + k] * z[zo + k];
    }
    return (s0 + s1) + (s2 + s3);
  }

  /** ℓ at (v, ud, fd); {@code f} is work space (receives μ_q + fd). */
  private double residual(double[] v, double[] ud, double[] fd, double[] f) {
    double ll = 0;
    for (int i = 0; i < n; i++) {
      f[i] = muQ[i] + fd[i];
      ll += likelihood.logDensityValue(y[i], f[i]);
    }
    if (a == null) {
      return ll; // u = v: the Gaussian terms cancel
    }
    double uu = 0;
    double vv = 0;
    for (int i = 0; i < n; i++) {
      double u = uq[i] + ud[i];
      uu += u * u;
      vv += v[i] * v[i];
    }
    return -0.5 * uu + 0.5 * vv + logDetA + ll;
  }

  /** The residual ℓ at the state (log p* − log q, constants included). */
  double residual(State s) {
    return s.residual;
  }

  /**
   * One sweep of single-site updates of the posterior (β = 1) over i = 0 … n − 1 from {@code s} (updated in place).
   * Needs the constructor's {@code sites}.
   */
  void sweep(State s) {
    if (precision == null) {
      throw new IllegalStateException(
          "site sweeps need the precision matrix (construct with sites)");
    }
    double[] f = s.g;
    double[] w = s.w;
    latent(s, f);
    // w = P (f − m₀), afresh each sweep
    for (int i = 0; i < n; i++) {
      double acc = 0;
      int row = i * n;
      for (int j = 0; j < n; j++) {
        acc += precision[row + j] * (f[j] - priorMean);
      }
      w[i] = acc;
    }
    for (int i = 0; i < n; i++) {
      double pii = precision[i * n + i];
      double c = f[i] - w[i] / pii;
      double sd = 1 / Math.sqrt(pii);
      double x0 = f[i] - c;
      double nu = sd * s.gauss.sample();
      double logH = likelihood.logDensityValue(y[i], f[i]) + Math.log(s.rng.nextDouble());
      double theta = 2 * Math.PI * s.rng.nextDouble();
      double lo = theta - 2 * Math.PI;
      double hi = theta;
      double next = f[i];
      while (true) {
        double t = c + x0 * Math.cos(theta) + nu * Math.sin(theta);
        s.evaluations++;
        if (likelihood.logDensityValue(y[i], t) > logH) {
          next = t;
          break;
        }
        if (theta < 0) {
          lo = theta;
        } else {
          hi = theta;
        }
        if (!(hi - lo > 1e-300)) {
          break; // collapsed onto the current value (rounding only): stay
        }
        theta = lo + (hi - lo) * s.rng.nextDouble();
      }
      double d = next - f[i];
      if (d != 0) {
        f[i] = next;
        int row = i * n; // P is symmetric: column i is row i
        for (int j = 0; j < n; j++) {
          w[j] += d * precision[row + j];
        }
      }
    }
    // back to the ellipse's coordinates: fd = f − μ_q, ud = L_K⁻¹ fd, v = A⁻¹ ud
    for (int i = 0; i < n; i++) {
      s.fd[i] = f[i] - muQ[i];
    }
    solveLower(s.fd, s.ud);
    if (a == null) {
      System.arraycopy(s.ud, 0, s.v, 0, n);
    } else {
      solveUpperA(s.ud, s.v);
    }
    s.residual = residual(s.v, s.ud, s.fd, s.f);
  }

  /** out = L_K⁻¹ b (forward substitution on the packed rows). */
  private void solveLower(double[] b, double[] out) {
    int p = 0;
    for (int i = 0; i < n; i++) {
      double acc = b[i] - dot(lk, p, out, 0, i);
      out[i] = acc / lk[p + i];
      p += i + 1;
    }
  }

  /** out = A⁻¹ b (back substitution on A's packed upper rows). */
  private void solveUpperA(double[] b, double[] out) {
    int p = a.length;
    for (int i = n - 1; i >= 0; i--) {
      p -= n - i; // row i starts at its diagonal
      double acc = b[i] - dot(a, p + 1, out, i + 1, n - i - 1);
      out[i] = acc / a[p];
    }
  }

  /** One transition of π_β from {@code s} (updated in place). */
  void step(State s, double beta) {
    for (int i = 0; i < n; i++) {
      s.z[i] = s.gauss.sample();
    }
    map(s.z, s.uz, s.fz);
    double logH = beta * s.residual + Math.log(s.rng.nextDouble());
    double theta = 2 * Math.PI * s.rng.nextDouble();
    double lo = theta - 2 * Math.PI;
    double hi = theta;
    while (true) {
      double c = Math.cos(theta);
      double sn = Math.sin(theta);
      for (int i = 0; i < n; i++) {
        s.tv[i] = s.v[i] * c + s.z[i] * sn;
        s.tud[i] = s.ud[i] * c + s.uz[i] * sn;
        s.tfd[i] = s.fd[i] * c + s.fz[i] * sn;
      }
      double r = residual(s.tv, s.tud, s.tfd, s.f);
      s.evaluations++;
      if (beta * r > logH) {
        System.arraycopy(s.tv, 0, s.v, 0, n);
        System.arraycopy(s.tud, 0, s.ud, 0, n);
        System.arraycopy(s.tfd, 0, s.fd, 0, n);
        s.residual = r;
        return;
      }
      // the bracket shrinks towards θ = 0, the current state, which is always acceptable
      if (theta < 0) {
        lo = theta;
      } else {
        hi = theta;
      }
      if (!(hi - lo > 1e-300)) {
        return; // the bracket collapsed onto the current state (possible only through rounding):
        // stay
      }
      theta = lo + (hi - lo) * s.rng.nextDouble();
    }
  }
}
