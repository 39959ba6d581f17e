package org.approxgp.inference;

import java.io.Serializable;
import java.util.Arrays;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;

/**
 * One block of {@link SparseApproximation#BLOCK} consecutive training rows of {@link SparseSiteLoop}'s parallel
 * schedule, and the work done where the block lives ({@link SiteBlocks}): its rows aₙ = L_uu⁻¹ kᵤₙ and FITC
 * variances dₙ ({@link #prepare}), and per sweep ({@link #apply}) its marginals q(gₙ) = N(m₀ + aₙᵀm, ‖L_B⁻¹aₙ‖²)
 * from the driver's q(v) = N(m, B⁻¹), its site updates by the method's rule ({@link SparseSiteUpdate} through
 * {@link Sweeps#siteUpdate}: the same damping and negative-site policy as the in-JVM loop), and the block's terms
 * of the next q(v) (Bui, Yan &amp; Turner 2017, §3; {@link SparseApproximation}):
 * <pre>
 * B_block = Σ τ̃ₙ aₙaₙᵀ,  b_block = Σ (ν̃ₙ − τ̃ₙ m₀) aₙ   (n in the block)
 * </pre>
 * and at the end the block's terms of the log evidence, ½ Σ (ν̃ₙ − τ̃ₙ m₀)(m_gₙ − m₀) and Σ log sₙ
 * ({@link SparseSiteUpdate#logScale}). Every term is computed from zero in the block; the driver adds them in
 * block order ({@link SparseSiteLoop}), so the result does not depend on where or in which order the blocks ran
 * (the same JDK and BLAS give the same bits in one JVM or on Spark executors). The blocks are cut at fixed
 * multiples of {@link SparseApproximation#BLOCK} rows, independent of any engine's partitioning, and B_block is
 * {@link SparseApproximation#weightedGram}'s own block term, so B has the bits of the in-JVM loop's.
 *
 * <p>A block's site-rule state ({@link SiteUpdate#start}) is rebuilt where the block lives, from the block's own
 * {@link Problem}; every rule with a sparse form ({@link SparseSiteUpdate#powerOf}) is stateless per row.
 */
public final class SiteBlock {

  private SiteBlock() {}

  /** Rows per block: {@link SparseApproximation#BLOCK}. */
  public static final int ROWS = SparseApproximation.BLOCK;

  /** The number of blocks of n rows. */
  public static int count(int n) {
    return (n + ROWS - 1) / ROWS;
  }

  /**
   * The training rows of block {@code index}: rows from {@code from} (= index · {@link #ROWS}), inputs and
   * targets.
   */
  public record Data(int index, int from, double[][] x, double[] y) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** The blocks of a training set, in block order. */
  public static Data[] split(double[][] x, double[] y) {
    if (x.length != y.length) {
      throw new IllegalArgumentException(x.length + " input rows, " + y.length + " targets");
    }
    Data[] out = new Data[count(x.length)];
    for (int k = 0; k < out.length; k++) {
      int from = k * ROWS;
      int to = Math.min(x.length, from + ROWS);
      out[k] = new Data(k, from, Arrays.copyOfRange(x, from, to), Arrays.copyOfRange(y, from, to));
    }
    return out;
  }

  /**
   * What every block needs for one run of the loop, sent once: the kernel, the inducing inputs Z and the factor
   * L_uu of K_uu (M × M row-major, the driver's, so every block solves with the same numbers), the likelihood and
   * prior mean, the site rule and the loop's options (damping, negative-site policy).
   */
  public record Setup(
      Kernel kernel,
      double[][] z,
      double[] kuuLower,
      Likelihood likelihood,
      double priorMean,
      SiteUpdate<?> rule,
      SiteLoopOptions options)
      implements Serializable {
    private static final long serialVersionUID = 1L;

    int inducing() {
      return z.length;
    }
  }

  /** A block with its rows aₙ (b × M row-major) and conditional variances dₙ at one run's kernel and Z. */
  public record Prepared(Data data, double[] rows, double[] d) implements Serializable {
    private static final long serialVersionUID = 1L;

    public int index() {
      return data.index();
    }
  }

  /**
   * aₙ = L_uu⁻¹ kᵤₙ and dₙ = max(0, kₙₙ − ‖aₙ‖²) of the block's rows: K_u,block (M × b) solved in place by one
   * triangular solve (BLAS dtrsm) and transposed, as {@code SparseSiteLoop.rows} does block by block.
   */
  public static Prepared prepare(Data data, Setup setup) {
    int m = setup.inducing();
    int b = data.x().length;
    Cholesky kuu = Cholesky.ofFactor(Matrix.wrap(m, m, setup.kuuLower()));
    double[] kd = setup.kernel().diagonal(data.x());
    Matrix kub = setup.kernel().cross(setup.z(), data.x()); // M × b
    kuu.solveLowerInPlace(kub);
    double[] w = kub.data();
    double[] rows = new double[b * m];
    double[] d = new double[b];
    for (int j = 0; j < b; j++) {
      int o = j * m;
      double s = 0;
      for (int r = 0; r < m; r++) {
        double v = w[r * b + j];
        rows[o + r] = v;
        s += v * v;
      }
      d[j] = Math.max(0.0, kd[j] - s); // ≥ 0 in exact arithmetic (a Schur complement)
    }
    return new Prepared(data, rows, d);
  }

  /** What a block is asked to do. */
  public enum Kind {
    /** The block's terms B_block, b_block of the given sites (no update): q(v) before the first sweep. */
    SUMS,
    /** Marginals from q(v), every site of the block updated, and the terms of the new sites. */
    SWEEP,
    /** Marginals from q(v) and the block's terms of the log evidence at the given sites. */
    EVIDENCE,
    /**
     * The block's sums of the evidence gradient ({@link SparseGradient}): Aᵀγ_m, A Γ_V Aᵀ, A Γ_d Aᵀ and the ∂θ
     * terms through kₙₙ, Σ γ_dₙ ∂kₙₙ/∂θ.
     */
    GRADIENT_SUMS,
    /** The block's ∂θ and ∂Z terms through K_uf, given X̃, B⁻¹ and ẽ ({@link SparseGradient#blockTerms}). */
    GRADIENT_TERMS
  }

  /**
   * One request to every block: the kind, the driver's q(v) (m and the factor L_B of B, M × M row-major; null for
   * {@link Kind#SUMS}), the sites of all n rows (each block reads its own), and the sweep number (1-based, for
   * messages).
   */
  public record Step(
      Kind kind,
      double[] mean,
      double[] bLower,
      double[] tau,
      double[] nu,
      int sweep,
      double[] xTilde,
      double[] bInverse,
      double[] e)
      implements Serializable {
    private static final long serialVersionUID = 1L;

    /** A request without the gradient's M × M terms (X̃, B⁻¹, ẽ: {@link Kind#GRADIENT_TERMS} only). */
    public Step(Kind kind, double[] mean, double[] bLower, double[] tau, double[] nu, int sweep) {
      this(kind, mean, bLower, tau, nu, sweep, null, null, null);
    }
  }

  /**
   * A block's answer: its index, its (new) sites, its terms of q(v) (gram: Σ τ̃ₙ aₙaₙᵀ, M × M, not symmetrised;
   * rhs: Σ (ν̃ₙ − τ̃ₙ m₀) aₙ), the sites it skipped (improper cavity) and clipped, its evidence terms (quad:
   * Σ (ν̃ₙ − τ̃ₙ m₀)(m_gₙ − m₀); logScale: Σ log sₙ) with its marginals and dₙ ({@link Kind#EVIDENCE}), or a
   * failure: the message of the numerical failure that stopped the block (null when none). For
   * {@link Kind#GRADIENT_SUMS}: rhs Aᵀγ_m, gram A Γ_V Aᵀ, gram2 A Γ_d Aᵀ, theta Σ γ_dₙ ∂kₙₙ/∂θ; for
   * {@link Kind#GRADIENT_TERMS}: theta and inducing, the block's ∂θ and ∂Z through K_uf.
   */
  public record Result(
      int index,
      double[] tau,
      double[] nu,
      double[] gram,
      double[] rhs,
      int skipped,
      int clipped,
      double quad,
      double logScale,
      double[] gMean,
      double[] gVariance,
      double[] d,
      String failure,
      double[] gram2,
      double[] theta,
      double[][] inducing)
      implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** The block's answer to {@code step} (class comment). Numerical failures are returned, not thrown. */
  public static Result apply(Prepared block, Setup setup, Step step) {
    return applyWith(block, setup, step, setup.rule());
  }

  private static <S> Result applyWith(Prepared block, Setup setup, Step step, SiteUpdate<S> rule) {
    Data data = block.data();
    int b = data.x().length;
    int m = setup.inducing();
    int from = data.from();
    double m0 = setup.priorMean();
    double[] tau = Arrays.copyOfRange(step.tau(), from, from + b);
    double[] nu = Arrays.copyOfRange(step.nu(), from, from + b);
    if (step.kind() == Kind.SUMS) {
      return sums(block, m0, m, tau, nu, 0, 0);
    }
    double[] gMean = new double[b];
    double[] gVar = new double[b];
    Cholesky lb = Cholesky.ofFactor(Matrix.wrap(m, m, step.bLower()));
    SparseApproximation.blockMarginals(block.rows(), 0, b, m, m0, step.mean(), lb, gMean, gVar, 0);
    Problem local = new Problem(setup.kernel(), data.x(), data.y(), setup.likelihood(), m0);
    SparseSiteUpdate<S> update = SparseSiteUpdate.of(rule, block.d());
    S state = update.start(local);
    LoopRun run = new LoopRun(update.name(), System.nanoTime());
    run.sweeps = step.sweep() - 1;
    run.keep = setup.options().negativeSites() == SiteLoop.NegativeSitePrecision.KEEP;
    String where = " [block " + data.index() + ": rows " + from + "–" + (from + b - 1)
        + "; site numbers within the block]";
    if (step.kind() == Kind.GRADIENT_SUMS || step.kind() == Kind.GRADIENT_TERMS) {
      return gradient(block, setup, step, tau, nu, gMean, gVar);
    }
    if (step.kind() == Kind.EVIDENCE) {
      run.evidence = true;
      double quad = 0;
      for (int j = 0; j < b; j++) {
        quad += (nu[j] - tau[j] * m0) * (gMean[j] - m0);
      }
      double ls = 0;
      try {
        for (int j = 0; j < b; j++) {
          run.site = j;
          ls += update.logScale(state, local, j, gMean[j], gVar[j], tau[j], nu[j]);
        }
      } catch (ArithmeticException e) {
        return failed(data.index(), e.getMessage() + run.where() + where, gMean, gVar, block.d());
      }
      return new Result(
          data.index(),
          tau,
          nu,
          null,
          null,
          0,
          0,
          quad,
          ls,
          gMean,
          gVar,
          block.d().clone(),
          null,
          null,
          null,
          null);
    }
    // SWEEP: every site from the marginals at the start of the sweep (SparseSiteLoop's parallel
    // schedule)
    double[] tauNew = tau.clone();
    double[] nuNew = nu.clone();
    try {
      for (int j = 0; j < b; j++) {
        SiteUpdate.Cavity cav = update.cavity(state, j, gMean[j], gVar[j], tau[j], nu[j]);
        SiteUpdate.Site upd =
            Sweeps.siteUpdate(local, update, state, setup.options(), j, cav, tau[j], nu[j], run);
        if (upd != null) {
          tauNew[j] = upd.tau();
          nuNew[j] = upd.nu();
        }
      }
    } catch (InferenceException e) {
      return failed(data.index(), e.getMessage() + where, null, null, null);
    } catch (ArithmeticException e) {
      return failed(data.index(), e.getMessage() + run.where() + where, null, null, null);
    }
    return sums(block, m0, m, tauNew, nuNew, run.skipped, run.clipped);
  }

  /** The block's part of {@link SparseGradient} at the final q(v) (see {@link Kind#GRADIENT_SUMS}). */
  private static Result gradient(
      Prepared block,
      Setup setup,
      Step step,
      double[] tau,
      double[] nu,
      double[] gMean,
      double[] gVar) {
    int b = tau.length;
    int m = setup.inducing();
    double m0 = setup.priorMean();
    double alpha = SparseSiteUpdate.powerOf(setup.rule());
    double[] y = block.data().y();
    double[] gm = new double[b];
    double[] gv = new double[b];
    double[] gd = new double[b];
    double[] nuc = new double[b];
    for (int j = 0; j < b; j++) {
      nuc[j] = SparseGradient.rowTerms(
          setup.likelihood(),
          alpha,
          m0,
          y[j],
          tau[j],
          nu[j],
          gMean[j],
          gVar[j],
          block.d()[j],
          gm,
          gv,
          gd,
          j);
    }
    double[] rows = block.rows();
    if (step.kind() == Kind.GRADIENT_SUMS) {
      double[] atgm = Matrix.wrap(b, m, rows).multTransA(gm);
      double[] agv = SparseApproximation.blockGram(rows, 0, b, m, gv, 0);
      double[] agd = SparseApproximation.blockGram(rows, 0, b, m, gd, 0);
      double[] gdiag = setup.kernel().diagonalTraceGradient(block.data().x(), gd);
      return new Result(
          block.index(),
          null,
          null,
          agv,
          atgm,
          0,
          0,
          0,
          0,
          null,
          null,
          null,
          null,
          agd,
          gdiag,
          null);
    }
    SparseGradient.Result part = SparseGradient.blockTerms(
        setup.kernel(),
        setup.z(),
        Cholesky.ofFactor(Matrix.wrap(m, m, setup.kuuLower())),
        rows,
        b,
        block.data().x(),
        0,
        nuc,
        tau,
        gm,
        gv,
        gd,
        Matrix.wrap(m, m, step.xTilde()),
        Matrix.wrap(m, m, step.bInverse()),
        step.mean(),
        step.e());
    return new Result(
        block.index(),
        null,
        null,
        null,
        null,
        0,
        0,
        0,
        0,
        null,
        null,
        null,
        null,
        null,
        part.theta(),
        part.inducing());
  }

  private static Result failed(
      int index, String message, double[] gMean, double[] gVar, double[] d) {
    return new Result(
        index,
        null,
        null,
        null,
        null,
        0,
        0,
        Double.NaN,
        Double.NaN,
        gMean,
        gVar,
        d,
        message,
        null,
        null,
        null);
  }

  /** The block's terms of q(v) at sites (τ̃, ν̃) of the block. */
  private static Result sums(
      Prepared block, double m0, int m, double[] tau, double[] nu, int skipped, int clipped) {
    int b = tau.length;
    double[] gram = SparseApproximation.blockGram(block.rows(), 0, b, m, tau, 0);
    double[] nuc = new double[b];
    for (int j = 0; j < b; j++) {
      nuc[j] = nu[j] - tau[j] * m0;
    }
    double[] rhs = Matrix.wrap(b, m, block.rows()).multTransA(nuc);
    return new Result(
        block.index(),
        tau,
        nu,
        gram,
        rhs,
        skipped,
        clipped,
        0,
        0,
        null,
        null,
        null,
        null,
        null,
        null,
        null);
  }
}
