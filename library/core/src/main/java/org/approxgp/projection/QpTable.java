package org.approxgp.projection;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.stream.IntStream;
import org.approxgp.likelihood.Likelihood;

/**
 * A QP lookup table (Zhang et al. 2020, appendix J): σ_QP/σ_EP as a data-independent function of the
 * cavity N(μ, σ²) for label y = +1, on a uniform grid in (μ, log σ), read by local tensor-product
 * Lagrange interpolation of order {@link #order()} (degree order − 1 in each variable).
 *
 * <p>Differences from the paper's table (linear interpolation of σ_QP² on 20001 × 2001 points): the
 * tabulated quantity is the ratio σ_QP/σ_EP ∈ (0, 1], which is smooth and close to 1, so a modest grid
 * with high-order interpolation reaches ~1e-9 relative accuracy; label y = −1 uses the symmetry
 * q̃(f; −1, μ) = q̃(−f; +1, −μ), which leaves σ unchanged, so only y = +1 is stored; off the grid the
 * caller computes σ_QP exactly (never σ_EP).
 *
 * <p><b>Axes.</b> The first coordinate x is μ itself ({@link Axis#MU}, the shipped table of appendix J's range) or
 * the probit's argument z = μ/√(1 + σ²) ({@link Axis#Z}, the wide table): Z = Φ(z) is the tilted normaliser (R&amp;W
 * eq. 3.82), and as σ → ∞ at fixed z the tilted distribution of f/√(1 + σ²) tends to N(z, 1) truncated to
 * (0, ∞), so the ratio tends to a smooth function of z with corrections in 1/σ², and a uniform grid in (z, ln σ)
 * serves every σ up to σ_max with the same node count per unit of ln σ. (In μ the covered band would widen like σ.)
 *
 * <p>Immutable and thread-safe. Binary format (big-endian {@link DataOutputStream}): magic
 * {@code "QPT1"} (axis μ) or {@code "QPT2"} (axis z), likelihood name (UTF), order, nx, x_min, x_max, nλ, λ_min,
 * λ_max (λ = ln σ), then nx·nλ doubles, x-major (index i·nλ + j).
 */
public final class QpTable implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private static final String MAGIC = "QPT1";
  private static final String MAGIC_Z = "QPT2";

  /** The first coordinate of the grid: μ (= y m) or z = μ/√(1 + σ²). */
  public enum Axis {
    /** x = y m, the cavity mean for label +1. */
    MU,
    /** x = y m/√(1 + σ²), the probit's argument (R&amp;W eq. 3.58). */
    Z;

    double of(double mu, double sigma) {
      return this == MU ? mu : mu / Math.sqrt(1 + sigma * sigma);
    }

    double mu(double x, double sigma) {
      return this == MU ? x : x * Math.sqrt(1 + sigma * sigma);
    }
  }

  private final Axis axis;
  private final String likelihood;
  private final int order;
  private final int nMu;
  private final double muMin;
  private final double muMax;
  private final int nLam;
  private final double lamMin;
  private final double lamMax;
  private final double hMu;
  private final double hLam;
  private final double[] values;

  QpTable(
      Axis axis,
      String likelihood,
      int order,
      int nMu,
      double muMin,
      double muMax,
      int nLam,
      double lamMin,
      double lamMax,
      double[] values) {
    if (order < 2
        || order > 10
        || nMu < order
        || nLam < order
        || !(muMax > muMin)
        || !(lamMax > lamMin)
        || values.length != nMu * nLam) {
      throw new IllegalArgumentException("inconsistent QP table header");
    }
    this.axis = axis;
    this.likelihood = likelihood;
    this.order = order;
    this.nMu = nMu;
    this.muMin = muMin;
    this.muMax = muMax;
    this.nLam = nLam;
    this.lamMin = lamMin;
    this.lamMax = lamMax;
    this.hMu = (muMax - muMin) / (nMu - 1);
    this.hLam = (lamMax - lamMin) / (nLam - 1);
    this.values = values;
  }

  /**
   * A grid specification for {@link #build}: nMu nodes of the first coordinate (μ, or z for {@link Axis#Z}) on
   * [muMin, muMax], nLogSigma nodes uniform in ln σ on [ln sigmaMin, ln sigmaMax].
   */
  public record Grid(
      int order,
      int nMu,
      double muMin,
      double muMax,
      int nLogSigma,
      double sigmaMin,
      double sigmaMax,
      Axis axis) {
    public Grid {
      if (order < 2
          || order > 10
          || nMu < order
          || nLogSigma < order
          || !(muMax > muMin)
          || !(sigmaMin > 0)
          || !(sigmaMax > sigmaMin)
          || axis == null) {
        throw new IllegalArgumentException(
            "invalid QP table grid " + order + ", " + nMu + ", " + nLogSigma);
      }
    }

    /** A grid in (μ, ln σ) ({@link Axis#MU}). */
    public Grid(
        int order,
        int nMu,
        double muMin,
        double muMax,
        int nLogSigma,
        double sigmaMin,
        double sigmaMax) {
      this(order, nMu, muMin, muMax, nLogSigma, sigmaMin, sigmaMax, Axis.MU);
    }
  }

  /**
   * Tabulates σ_QP/σ_EP for y = +1 with the exact W2 projection at relative tolerance {@code relTol}.
   * Every grid value depends only on its own (μ, σ), so the parallel build is bit-for-bit deterministic.
   */
  public static QpTable build(Likelihood likelihood, Grid grid, double relTol) {
    double lamMin = Math.log(grid.sigmaMin());
    double lamMax = Math.log(grid.sigmaMax());
    double hMu = (grid.muMax() - grid.muMin()) / (grid.nMu() - 1);
    double hLam = (lamMax - lamMin) / (grid.nLogSigma() - 1);
    int nl = grid.nLogSigma();
    double[] v = new double[grid.nMu() * nl];
    Axis axis = grid.axis();
    IntStream.range(0, v.length).parallel().forEach(idx -> {
      double x = grid.muMin() + (idx / nl) * hMu;
      double sigma = Math.exp(lamMin + (idx % nl) * hLam);
      v[idx] = exactRatio(likelihood, axis.mu(x, sigma), sigma, relTol);
    });
    return new QpTable(
        axis,
        likelihood.name(),
        grid.order(),
        grid.nMu(),
        grid.muMin(),
        grid.muMax(),
        nl,
        lamMin,
        lamMax,
        v);
  }

  /** σ_QP/σ_EP for y = +1 and cavity N(μ, σ²), computed exactly. */
  static double exactRatio(Likelihood likelihood, double mu, double sigma, double relTol) {
    double v = sigma * sigma;
    var kl = likelihood.tilted(1.0, mu, v);
    return W2Projection.sigma(likelihood, 1.0, mu, v, kl, relTol).value()
        / Math.sqrt(kl.variance());
  }

  /**
   * Whether this table serves (likelihood, y, m, v): same likelihood, y = ±1, (x, ln √v) inside the grid, x = y m
   * (or y m/√(1 + v) for {@link Axis#Z}).
   */
  public boolean covers(Likelihood lik, double y, double m, double v) {
    if (!lik.name().equals(likelihood) || (y != 1.0 && y != -1.0)) {
      return false;
    }
    double sigma = Math.sqrt(v);
    return inside(axis.of(y * m, sigma), Math.log(sigma));
  }

  /**
   * Whether grid coordinates (x, ln σ) lie in the grid: the one test of {@link #covers} and {@link #ratio}, on the
   * same coordinates, so that a covered cavity is never refused by {@link #ratio} at a boundary.
   */
  private boolean inside(double x, double lam) {
    return x >= muMin && x <= muMax && lam >= lamMin && lam <= lamMax;
  }

  /**
   * Interpolated σ_QP/σ_EP for label y = ±1 and cavity N(m, σ²); the point must be covered.
   *
   * @throws IllegalArgumentException outside the grid
   */
  public double ratio(double y, double m, double sigma) {
    double mu = axis.of(y * m, sigma); // y = −1 ⇔ μ → −μ
    double lam = Math.log(sigma);
    if (!inside(mu, lam)) {
      throw new IllegalArgumentException("(" + mu + ", " + sigma + ") is outside the QP table");
    }
    double[] wMu = new double[order];
    double[] wLam = new double[order];
    int i0 = stencil((mu - muMin) / hMu, nMu, wMu);
    int j0 = stencil((lam - lamMin) / hLam, nLam, wLam);
    double s = 0;
    for (int a = 0; a < order; a++) {
      int row = (i0 + a) * nLam + j0;
      double t = 0;
      for (int b = 0; b < order; b++) {
        t += wLam[b] * values[row + b];
      }
      s += wMu[a] * t;
    }
    return s;
  }

  /**
   * First index of the {@code order}-point stencil around grid coordinate u (in units of h), centred on
   * the cell containing u and shifted inwards at the edges; fills the Lagrange weights.
   */
  private int stencil(double u, int n, double[] w) {
    int cell = (int) Math.floor(u);
    int start = Math.max(0, Math.min(n - order, cell - order / 2 + 1));
    double x = u - start; // in [0, order − 1]
    // uniform-node Lagrange basis: w_j = Π_{l≠j} (x − l)/(j − l)
    for (int j = 0; j < order; j++) {
      double num = 1;
      double den = 1;
      for (int l = 0; l < order; l++) {
        if (l != j) {
          num *= x - l;
          den *= j - l;
        }
      }
      w[j] = num / den;
    }
    return start;
  }

  public String likelihood() {
    return likelihood;
  }

  /** The first coordinate of the grid. */
  public Axis axis() {
    return axis;
  }

  public int order() {
    return order;
  }

  /** Number of nodes of the first coordinate (μ, or z for {@link Axis#Z}). */
  public int muCount() {
    return nMu;
  }

  /** Number of log σ nodes. */
  public int logSigmaCount() {
    return nLam;
  }

  /** Node i of the first coordinate (μ, or z for {@link Axis#Z}); so are {@link #muMin()}, {@link #muMax()}. */
  public double mu(int i) {
    return muMin + i * hMu;
  }

  public double sigma(int j) {
    return Math.exp(lamMin + j * hLam);
  }

  /** The tabulated σ_QP/σ_EP at node (i, j) for y = +1. */
  public double value(int i, int j) {
    return values[i * nLam + j];
  }

  public double muMin() {
    return muMin;
  }

  public double muMax() {
    return muMax;
  }

  public double sigmaMin() {
    return Math.exp(lamMin);
  }

  public double sigmaMax() {
    return Math.exp(lamMax);
  }

  /** Writes the binary form (does not close {@code out}). */
  public void write(OutputStream out) throws IOException {
    DataOutputStream d = new DataOutputStream(out);
    d.writeUTF(axis == Axis.MU ? MAGIC : MAGIC_Z);
    d.writeUTF(likelihood);
    d.writeInt(order);
    d.writeInt(nMu);
    d.writeDouble(muMin);
    d.writeDouble(muMax);
    d.writeInt(nLam);
    d.writeDouble(lamMin);
    d.writeDouble(lamMax);
    for (double x : values) {
      d.writeDouble(x);
    }
    d.flush();
  }

  /** Reads the binary form written by {@link #write}. */
  public static QpTable read(InputStream in) throws IOException {
    DataInputStream d = new DataInputStream(in);
    String magic = d.readUTF();
    if (!MAGIC.equals(magic) && !MAGIC_Z.equals(magic)) {
      throw new IOException("not a QP table (magic " + magic + ")");
    }
    Axis axis = MAGIC.equals(magic) ? Axis.MU : Axis.Z;
    String lik = d.readUTF();
    int order = d.readInt();
    int nMu = d.readInt();
    double muMin = d.readDouble();
    double muMax = d.readDouble();
    int nLam = d.readInt();
    double lamMin = d.readDouble();
    double lamMax = d.readDouble();
    if (nMu <= 0 || nLam <= 0 || (long) nMu * nLam > 50_000_000L) {
      throw new IOException("implausible QP table size " + nMu + " x " + nLam);
    }
    double[] v = new double[nMu * nLam];
    for (int k = 0; k < v.length; k++) {
      v[k] = d.readDouble();
    }
    return new QpTable(axis, lik, order, nMu, muMin, muMax, nLam, lamMin, lamMax, v);
  }

  @Override
  public String toString() {
    return "QpTable[" + likelihood + ", order " + order + ", " + (axis == Axis.MU ? "mu " : "z ")
        + muMin + ".." + muMax + " x " + nMu + ", sigma " + sigmaMin() + ".." + sigmaMax() + " x "
        + nLam + " (log)]";
  }
}
