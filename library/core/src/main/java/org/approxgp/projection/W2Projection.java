package org.approxgp.projection;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleUnaryOperator;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.special.NumericalException;

/**
 * The L2-Wasserstein projection argmin_N W₂²(q̃, N) of Quantile Propagation (Zhang et al. 2020, eq. 5
 * of the main text / eq. 7 in the appendix version; derivation in appendix A, eq. 11–23):
 * <pre>
 *   μ* = E_q̃[f]                                       (eq. 17: the same mean as EP)
 *   σ* = √2 ∫₀¹ F⁻¹(u) erf⁻¹(2u − 1) du
 *      = (2π)^(−½) ∫ exp(−[erf⁻¹(2F(f) − 1)]²) df      (eq. 23)
 *      = ∫ N(Φ⁻¹(F(f))) df
 * </pre>
 * with F the tilted CDF ({@link Likelihood#tiltedCdf}). The last line is the same integrand: Φ⁻¹(p) =
 * √2 erf⁻¹(2p − 1), so N(Φ⁻¹(F)) = (2π)^(−½) exp(−[erf⁻¹(2F − 1)]²). σ* ≤ σ_EP (Theorem 2).
 *
 * <p><b>Numerics.</b> The integrand is evaluated through the smaller tail p = min(F, 1 − F) (N is even,
 * so N(Φ⁻¹(F)) = N(Φ⁻¹(p))), and F is clipped to [0, 1] by the likelihood; in the tails N(Φ⁻¹(p)) ≈
 * p √(2 log(1/p)), so an absolute error ε in F costs at most ≈ ε √(2 log(1/ε)) in the integrand. The
 * integral over the real line is done by the trapezoid rule after the map f = μ̂ + σ̂ sinh τ centred on
 * and scaled by the EP moments (μ̂, σ̂), refined level by level until consecutive levels agree to the
 * requested tolerance (the difference is the returned error estimate). For the probit at σ &gt; 10 the tilted CDF
 * at the nodes is accumulated by Gauss–Legendre sums of the tilted density instead of evaluated in closed form
 * ({@link W2Quadrature#cumulative}, for a likelihood with exact tilted tails: ~8× cheaper there, and more accurate at σ ≳ 100, where Owen's formula is
 * ill-conditioned).
 * Where the finest level does not reach the tolerance (wide cavities, σ ≳ 50: the likelihood's unit-width step at
 * f = 0 is a feature of relative width 1/σ on the EP scale), adaptive Gauss–Kronrod split at the likelihood's unit
 * scale around 0 and at the EP scale takes over ({@link #sigma}).
 *
 * <p>With {@link QpTable}s the variance comes from the first table that covers (y, m, √v) for this likelihood
 * ({@link #probitTabulated()}: the shipped table, then the wide one); otherwise the integral is computed exactly
 * — never the EP variance.
 */
public final class W2Projection implements Projection, java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** Default relative tolerance of σ* in {@link #exact()}. */
  public static final double DEFAULT_REL_TOL = 1e-11;
  /** Accept a non-converged quadrature only if its error estimate is below this relative level. */
  private static final double ACCEPT_REL_ERR = 1e-7;

  private final double relTol;
  /** Tables in order of precedence (the first that covers a cavity serves it); empty for the exact projection. */
  private final List<QpTable> tables;

  private W2Projection(double relTol, List<QpTable> tables) {
    if (!(relTol > 0 && relTol < 1e-2)) {
      throw new IllegalArgumentException("relative tolerance must be in (0, 1e-2), got " + relTol);
    }
    this.relTol = relTol;
    this.tables = List.copyOf(tables);
  }

  /** W2 projection computing σ* by adaptive quadrature for every site (relative tolerance 1e-11). */
  public static W2Projection exact() {
    return new W2Projection(DEFAULT_REL_TOL, List.of());
  }

  /** W2 projection computing σ* by adaptive quadrature to the given relative tolerance. */
  public static W2Projection exact(double relTol) {
    return new W2Projection(relTol, List.of());
  }

  /**
   * W2 projection reading σ* / σ_EP from the first of {@code tables} that covers the cavity, exact where none
   * does.
   */
  public static W2Projection tabulated(QpTable... tables) {
    if (tables.length == 0 || Arrays.stream(tables).anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException("tables must be given and not null");
    }
    return new W2Projection(DEFAULT_REL_TOL, Arrays.asList(tables));
  }

  /**
   * The shipped probit tables: {@link QpTables#probit()} (μ ∈ [−10, 10], σ ∈ [0.1, 10]) first, where it covers
   * the cavity, then {@link QpTables#probitWide()} (wide cavities, on (z, ln σ)); exact for other likelihoods and
   * off both grids.
   */
  public static W2Projection probitTabulated() {
    return tabulated(QpTables.probit(), QpTables.probitWide());
  }

  /**
   * The W2 projection for {@code likelihood}: tabulated where the project ships tables for it
   * ({@link QpTables#shipped}; the probit's), exact otherwise.
   */
  public static W2Projection forLikelihood(Likelihood likelihood) {
    List<QpTable> shipped = QpTables.shipped(likelihood.name());
    return shipped.isEmpty() ? exact() : tabulated(shipped.toArray(QpTable[]::new));
  }

  /**
   * Every table the project ships ({@link QpTables#shipped}), exact where none covers a site: each table serves
   * only its own likelihood, so for any likelihood this is {@link #forLikelihood} of it, without knowing it in
   * advance. QP's default ({@code Qp.options()}).
   */
  public static W2Projection shipped() {
    return tabulated(QpTables.all().toArray(QpTable[]::new));
  }

  /** The first table in use, or null for the exact projection. */
  public QpTable table() {
    return tables.isEmpty() ? null : tables.get(0);
  }

  /** The tables in use, in order of precedence (empty for the exact projection). */
  public List<QpTable> tables() {
    return tables;
  }

  /** Whether one of the tables serves (likelihood, y, m, v) (else {@link #project} computes σ* exactly). */
  public boolean covers(Likelihood likelihood, double y, double m, double v) {
    return tableFor(likelihood, y, m, v) != null;
  }

  private QpTable tableFor(Likelihood likelihood, double y, double m, double v) {
    for (QpTable t : tables) {
      if (t.covers(likelihood, y, m, v)) {
        return t;
      }
    }
    return null;
  }

  @Override
  public TiltedMoments project(Likelihood likelihood, double y, double m, double v) {
    TiltedMoments kl = likelihood.tilted(y, m, v);
    double sdEp = Math.sqrt(kl.variance());
    QpTable t = tableFor(likelihood, y, m, v);
    double sd;
    if (t != null) {
      sd = t.ratio(y, m, Math.sqrt(v)) * sdEp;
    } else {
      sd = sigma(likelihood, y, m, v, kl, relTol).value();
    }
    return new TiltedMoments(kl.logZ(), kl.mean(), sd * sd);
  }

  @Override
  public String name() {
    return tables.isEmpty() ? "w2" : "w2-table";
  }

  /**
   * σ* of eq. 23 with its quadrature error estimate.
   *
   * @param value σ*
   * @param errorEstimate absolute error estimate of σ*
   * @param evaluations number of tilted-CDF evaluations
   * @param converged whether the requested tolerance was met
   */
  public record Sigma(double value, double errorEstimate, int evaluations, boolean converged) {}

  /** σ* for q̃ ∝ N(f | m, v) p(y | f) to relative tolerance {@code relTol}. */
  public static Sigma sigma(Likelihood likelihood, double y, double m, double v, double relTol) {
    return sigma(likelihood, y, m, v, likelihood.tilted(y, m, v), relTol);
  }

  static Sigma sigma(
      Likelihood lik, double y, double m, double v, TiltedMoments kl, double relTol) {
    if (!(v > 0) || !Double.isFinite(m)) {
      throw new IllegalArgumentException(
          "cavity must have finite mean and positive variance, got " + m + ", " + v);
    }
    double c = kl.mean();
    double s = Math.sqrt(kl.variance());
    if (!(s > 0) || !Double.isFinite(c)) {
      throw new NumericalException(
          "tilted moments not usable: mean " + c + ", variance " + kl.variance());
    }
    DoubleUnaryOperator g = f -> W2Quadrature.tailDensity(lik.tiltedCdf(y, m, v, f));
    if (lik.exactTiltedTails()
        && v > W2Quadrature.CUMULATIVE_MIN_VARIANCE
        && W2Quadrature.jumps(lik, y).length == 0) {
      Sigma r = W2Quadrature.cumulative(lik, y, m, v, c, s, kl.logZ(), relTol);
      if (r.converged()) {
        return r;
      }
    }
    double[] jumps = W2Quadrature.jumps(lik, y);
    Sigma r = jumps.length == 0
        ? W2Quadrature.sinhTrapezoid(g, c, s, relTol)
        : W2Quadrature.splitAtKinks(g, c, s, jumps, relTol);
    if (!r.converged() && jumps.length == 0) {
      // the trapezoid's nodes follow the EP scale s; a likelihood that changes on its own unit
      // scale near f = 0
      // (the probit's step when the cavity is wide, σ ≳ 50) is a feature of relative width 1/s that
      // the finest
      // level h = 2⁻⁸ does not resolve to relTol: split adaptive Gauss–Kronrod there instead
      Sigma k = W2Quadrature.splitAtKinks(g, c, s, W2Quadrature.unitScalePoints(lik, y), relTol);
      if (k.converged() || k.errorEstimate() < r.errorEstimate()) {
        r = new Sigma(
            k.value(), k.errorEstimate(), r.evaluations() + k.evaluations(), k.converged());
      }
    }
    if (!(r.value() > 0)
        || !Double.isFinite(r.value())
        || (!r.converged() && !(r.errorEstimate() <= ACCEPT_REL_ERR * r.value()))) {
      throw new NumericalException("W2 projection integral failed: sigma* = " + r.value() + " +- "
          + r.errorEstimate() + " for y = " + y + ", cavity N(" + m + ", " + v + ")");
    }
    return r;
  }
}
