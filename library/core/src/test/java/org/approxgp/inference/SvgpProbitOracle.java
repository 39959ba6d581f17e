package org.approxgp.inference;

import org.approxgp.kernel.Kernel;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.optimize.Lbfgs;
import org.approxgp.special.GaussHermite;
import org.approxgp.special.Normal;

/**
 * An independent oracle for the α → 0 limit of sparse Power EP: the uncollapsed SVGP bound for probit
 * classification (Hensman, Matthews &amp; Ghahramani, AISTATS 2015), maximised over q(u) by L-BFGS in whitened
 * coordinates, with no site, cavity or tilted distribution anywhere:
 * <pre>
 * u = m₀ + L_uu v,  q(v) = N(m, C Cᵀ) (C lower triangular, log-diagonal),
 * L(m, C) = Σₙ E_{N(f | m₀ + aₙᵀm, dₙ + ‖Cᵀaₙ‖²)}[log Φ(yₙ f)] − KL(N(m, CCᵀ) ‖ N(0, I)),
 * </pre>
 * aₙ = L_uu⁻¹ kᵤₙ, dₙ = kₙₙ − ‖aₙ‖². The expectations by 100-point Gauss–Hermite, with the derivatives
 * ∂E/∂μ = E[y r(yf)], ∂E/∂s = ½ E[−r(yf)(yf + r(yf))], r = φ/Φ.
 */
final class SvgpProbitOracle {
  private static final GaussHermite GH = GaussHermite.of(100);

  private final int n;
  private final int m;
  private final double m0;
  private final double[][] a;
  private final double[] d;
  private final double[] y;

  private SvgpProbitOracle(Kernel k, double[][] x, double[] y, double[][] z, double m0) {
    this.n = x.length;
    this.m = z.length;
    this.m0 = m0;
    this.y = y;
    Cholesky kuu = Cholesky.factor(k.matrix(z), JitterPolicy.none());
    Matrix am = kuu.solveLower(k.cross(z, x)); // M × n
    double[] kd = k.diagonal(x);
    a = new double[n][m];
    d = new double[n];
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int r = 0; r < m; r++) {
        a[i][r] = am.get(r, i);
        s += a[i][r] * a[i][r];
      }
      d[i] = Math.max(0, kd[i] - s);
    }
  }

  /** The maximised bound. */
  static double optimum(Kernel k, double[][] x, double[] y, double[][] z, double m0) {
    SvgpProbitOracle o = new SvgpProbitOracle(k, x, y, z, m0);
    int p = o.m + o.m * (o.m + 1) / 2;
    double[] start = new double[p]; // m = 0, C = I (log-diagonal 0)
    Lbfgs.Result r =
        Lbfgs.minimize((th, g) -> -o.bound(th, g), start, new Lbfgs.Settings(5000, 0, 1e-10, 20));
    return -r.value();
  }

  /** L(θ) and its gradient, negated into {@code g} by the caller's wrapper (this writes ∂L/∂θ negated). */
  private double bound(double[] th, double[] g) {
    double[] mean = new double[m];
    System.arraycopy(th, 0, mean, 0, m);
    double[][] c = new double[m][m];
    int idx = m;
    for (int r = 0; r < m; r++) {
      for (int col = 0; col <= r; col++) {
        c[r][col] = r == col ? Math.exp(th[idx]) : th[idx];
        idx++;
      }
    }
    double[] gm = new double[m];
    double[][] gc = new double[m][m];
    double value = 0;
    double[] cta = new double[m];
    for (int i = 0; i < n; i++) {
      double mu = m0;
      for (int r = 0; r < m; r++) {
        mu += a[i][r] * mean[r];
      }
      double s = d[i];
      for (int col = 0; col < m; col++) {
        double acc = 0;
        for (int r = col; r < m; r++) {
          acc += c[r][col] * a[i][r];
        }
        cta[col] = acc;
        s += acc * acc;
      }
      double yi = y[i];
      value += GH.expectNormal(mu, s, f -> Normal.logCdf(yi * f));
      double gmu = GH.expectNormal(mu, s, f -> yi * Normal.ratio(yi * f));
      double gs = GH.expectNormal(mu, s, f -> {
        double rr = Normal.ratio(yi * f);
        return -0.5 * rr * (yi * f + rr);
      });
      for (int r = 0; r < m; r++) {
        gm[r] += gmu * a[i][r];
        // ∂s/∂C = 2 a (Cᵀa)ᵀ
        for (int col = 0; col <= r; col++) {
          gc[r][col] += 2 * gs * a[i][r] * cta[col];
        }
      }
    }
    // − KL = −½ (tr CCᵀ + mᵀm − M − 2 Σ log Cᵢᵢ)
    double kl = -m;
    for (int r = 0; r < m; r++) {
      kl += mean[r] * mean[r];
      gm[r] -= mean[r];
      for (int col = 0; col <= r; col++) {
        kl += c[r][col] * c[r][col];
        gc[r][col] -= c[r][col];
      }
      kl -= 2 * Math.log(c[r][r]);
      gc[r][r] += 1 / c[r][r];
    }
    value -= 0.5 * kl;
    for (int r = 0; r < m; r++) {
      g[r] = -gm[r];
    }
    idx = m;
    for (int r = 0; r < m; r++) {
      for (int col = 0; col <= r; col++) {
        g[idx] = -(r == col ? gc[r][col] * c[r][col] : gc[r][col]);
        idx++;
      }
    }
    return value;
  }
}
