package org.approxgp.sparse;

import org.approxgp.data.RegressionData;

/**
 * The sVBSSGP bound L(q) (paper §3.2, Appendix B) in closed form, derived independently of the stochastic
 * estimator for testing it.
 *
 * <p>With q(α) = N(b, S), S = M Mᵀ, the only non-Gaussian expectations are of the trigonometric features.
 * For real w and complex c, e (bilinear, no conjugation), with χ(w) = E[e^{i wᵀα}] = exp(i wᵀb − ½ wᵀ S w)
 * and the tilted mean μ_w = b + i S w:
 * E[(cᵀα) e^{i wᵀα}] = χ(w) cᵀμ_w and E[(cᵀα)(eᵀα) e^{i wᵀα}] = χ(w) [(cᵀμ_w)(eᵀμ_w) + cᵀ S e].
 * Writing φ_θ(x)ᵀ s = Σ_l Re A_l with A_l = (c_lᵀα) e^{i u_lᵀα}, c_l = e_{s,2l} − i e_{s,2l+1} and u_l = 2π x in
 * the block of r_l, and Re A Re B = ½ Re(A B + A B̄), gives E[v²] = y² − 2y E[φᵀs] + E[(φᵀs)²] in closed form,
 * hence E[log p(y | α)] (Lemma 2). E[log p(α)] and the entropy ½ D (1 + log 2π) + log|M| are Gaussian
 * integrals.
 */
final class SvbssgpExactBound {

  private SvbssgpExactBound() {}

  /** L(q) of {@code model}'s q(α), σ_n², σ_s² and prior length-scales on {@code data}. */
  static double elbo(Svbssgp model, RegressionData data) {
    int m = model.m();
    int d = model.d();
    int dim = model.dimension();
    int md = m * d;
    double[] b = model.mean();
    double[] mm = model.scale().data();
    double[] s = new double[dim * dim];
    for (int i = 0; i < dim; i++) {
      for (int j = 0; j < dim; j++) {
        double acc = 0;
        for (int k = 0; k < dim; k++) {
          acc += mm[i * dim + k] * mm[j * dim + k];
        }
        s[i * dim + j] = acc;
      }
    }
    double noise = model.noiseVariance();
    double lambda = model.signalVariance() / m;
    double[] ell = model.priorLengthscales();

    double data2 = 0;
    double[] w = new double[dim];
    for (int row = 0; row < data.n(); row++) {
      double[] x = data.row(row);
      double y = data.y()[row];
      double e1 = 0;
      for (int l = 0; l < m; l++) {
        setU(w, l, 1, -1, 0, x, d);
        e1 += expectLinear(l, w, b, s, md, dim)[0];
      }
      double e2 = 0;
      for (int l = 0; l < m; l++) {
        for (int k = 0; k < m; k++) {
          setU(w, l, 1, k, 1, x, d);
          double[] t1 = expectQuadratic(l, false, k, false, w, b, s, md, dim);
          setU(w, l, 1, k, -1, x, d);
          double[] t2 = expectQuadratic(l, false, k, true, w, b, s, md, dim);
          e2 += 0.5 * (t1[0] + t2[0]);
        }
      }
      double ev2 = y * y - 2 * y * e1 + e2;
      data2 += -0.5 * ev2 / noise - 0.5 * Math.log(2 * Math.PI * noise);
    }
    double prior = 0;
    for (int k = 0; k < dim; k++) {
      double var = k < md ? 1 / (4 * Math.PI * Math.PI * ell[k % d] * ell[k % d]) : lambda;
      prior += -0.5 * (s[k * dim + k] + b[k] * b[k]) / var - 0.5 * Math.log(2 * Math.PI * var);
    }
    double logDet = 0;
    for (int i = 0; i < dim; i++) {
      logDet += Math.log(mm[i * dim + i]);
    }
    double entropy = 0.5 * dim * (1 + Math.log(2 * Math.PI)) + logDet;
    return data2 + prior + entropy;
  }

  /** w = sign1 · u_l + sign2 · u_k (u = 2π x in frequency block l or k); k = −1 means no second term. */
  private static void setU(double[] w, int l, int sign1, int k, int sign2, double[] x, int d) {
    java.util.Arrays.fill(w, 0);
    for (int c = 0; c < d; c++) {
      w[l * d + c] += sign1 * 2 * Math.PI * x[c];
      if (k >= 0) {
        w[k * d + c] += sign2 * 2 * Math.PI * x[c];
      }
    }
  }

  /** χ(w) as {re, im}, and S w into sw. */
  private static double[] chi(double[] w, double[] b, double[] s, int dim, double[] sw) {
    double wb = 0;
    double wsw = 0;
    for (int i = 0; i < dim; i++) {
      double acc = 0;
      for (int j = 0; j < dim; j++) {
        acc += s[i * dim + j] * w[j];
      }
      sw[i] = acc;
      wb += w[i] * b[i];
      wsw += w[i] * acc;
    }
    double mag = Math.exp(-0.5 * wsw);
    return new double[] {mag * Math.cos(wb), mag * Math.sin(wb)};
  }

  /** cᵀμ_w for c = e_{2l} ∓ i e_{2l+1} in the s block (conj flips the sign of the imaginary unit). */
  private static double[] cDotMu(int l, boolean conj, double[] b, double[] sw, int md) {
    int i0 = md + 2 * l;
    int i1 = i0 + 1;
    double sign = conj ? 1 : -1; // c = e_{i0} + sign·i e_{i1}
    // μ = b + i S w ; c·μ = (b_{i0} + i sw_{i0}) + sign·i (b_{i1} + i sw_{i1})
    double re = b[i0] - sign * sw[i1];
    double im = sw[i0] + sign * b[i1];
    return new double[] {re, im};
  }

  private static double[] mul(double[] p, double[] q) {
    return new double[] {p[0] * q[0] - p[1] * q[1], p[0] * q[1] + p[1] * q[0]};
  }

  /** E[(c_lᵀα) e^{i wᵀα}]. */
  private static double[] expectLinear(int l, double[] w, double[] b, double[] s, int md, int dim) {
    double[] sw = new double[dim];
    double[] ch = chi(w, b, s, dim, sw);
    return mul(ch, cDotMu(l, false, b, sw, md));
  }

  /** E[(c_lᵀα)(c_kᵀα) e^{i wᵀα}] with c_k conjugated when conjK. */
  private static double[] expectQuadratic(
      int l,
      boolean conjL,
      int k,
      boolean conjK,
      double[] w,
      double[] b,
      double[] s,
      int md,
      int dim) {
    double[] sw = new double[dim];
    double[] ch = chi(w, b, s, dim, sw);
    double[] prod = mul(cDotMu(l, conjL, b, sw, md), cDotMu(k, conjK, b, sw, md));
    // cᵀ S e with c = e_{a0} + σc i e_{a1}, e = e_{b0} + σe i e_{b1}
    int a0 = md + 2 * l;
    int a1 = a0 + 1;
    int b0 = md + 2 * k;
    int b1 = b0 + 1;
    double sc = conjL ? 1 : -1;
    double se = conjK ? 1 : -1;
    double re = s[a0 * dim + b0] - sc * se * s[a1 * dim + b1];
    double im = se * s[a0 * dim + b1] + sc * s[a1 * dim + b0];
    return mul(ch, new double[] {prod[0] + re, prod[1] + im});
  }
}
