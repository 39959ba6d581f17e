package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.approxgp.likelihood.Probit;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.approxgp.projection.W2Projection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The block-parallel form of {@link SparseSiteLoop}'s parallel schedule ({@link SiteBlock}, {@link SiteBlocks}):
 * it follows a straightforward parallel loop over all rows to rounding, at Z = X its fixed point is exact
 * parallel EP / QP / Power EP, and blocks that cross Java serialisation (as they do to Spark executors) give the
 * in-JVM blocks' bits.
 */
class SiteBlocksTest {

  private static final SiteLoopOptions PAR = SiteLoopOptions.defaults()
      .withTolerance(1e-11)
      .withGradient(false)
      .withSchedule(SiteLoop.Schedule.PARALLEL)
      .withDamping(0.5);

  private static SiteUpdate<Void> rule(String name) {
    return switch (name) {
      case "ep" -> MomentMatching.ep();
      case "qp" -> MomentMatching.qp(W2Projection.shipped());
      case "power-ep" -> PowerEp.of(0.5);
      default -> throw new IllegalArgumentException(name);
    };
  }

  /** Two full blocks and a partial one (n not a multiple of the block size). */
  private static final int N = 2 * SiteBlock.ROWS + 123;

  private static SparseProblem problem() {
    double[][] x = SmallProblems.inputs(71, N, 2);
    double[] y = SmallProblems.labels(72, x);
    double[][] z = SmallProblems.inputs(73, 12, 2);
    return new SparseProblem(Problem.of(SmallProblems.ard(2), x, y, Probit.get()), z);
  }

  /**
   * The parallel schedule written out over all n rows at once, as the loop was before its block form: A = L_uu⁻¹
   * K_uf, q(v) from all sites ({@link SparseApproximation#compute}), every site from the marginals, repeated
   * {@code sweeps} times; then log Z from its definition.
   */
  private static double[] reference(SparseProblem sp, SiteUpdate<Void> rule, int sweeps) {
    Problem p = sp.problem();
    int n = p.size();
    double[][] z = sp.z();
    int m = z.length;
    Cholesky kuu = Cholesky.factor(p.kernel().matrix(z), PAR.jitter());
    Matrix a = kuu.solveLower(p.kernel().cross(z, p.x())); // M × n
    double[] rows = a.transpose().data();
    double[] kd = p.kernel().diagonal(p.x());
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int r = 0; r < m; r++) {
        s += rows[i * m + r] * rows[i * m + r];
      }
      d[i] = Math.max(0, kd[i] - s);
    }
    SparseSiteUpdate<Void> update = SparseSiteUpdate.of(rule, d);
    LoopRun run = new LoopRun("reference", 0);
    double[] tau = new double[n];
    double[] nu = new double[n];
    for (int s = 0; s < sweeps; s++) {
      SparseApproximation q = SparseApproximation.compute(
              n, m, p.priorMean(), rows, tau, nu, PAR.jitter())
          .marginals();
      for (int i = 0; i < n; i++) {
        SiteUpdate.Cavity cav = update.cavity(null, i, q.gMean[i], q.gVariance[i], tau[i], nu[i]);
        SiteUpdate.Site u = Sweeps.siteUpdate(p, update, null, PAR, i, cav, tau[i], nu[i], run);
        if (u != null) {
          tau[i] = u.tau();
          nu[i] = u.nu();
        }
      }
    }
    SparseApproximation q = SparseApproximation.compute(
            n, m, p.priorMean(), rows, tau, nu, PAR.jitter())
        .marginals();
    double logZ = -0.5 * q.b.logDet();
    for (int i = 0; i < n; i++) {
      logZ += 0.5 * (nu[i] - tau[i] * p.priorMean()) * (q.gMean[i] - p.priorMean());
      logZ += update.logScale(null, p, i, q.gMean[i], q.gVariance[i], tau[i], nu[i]);
    }
    double[] out = Arrays.copyOf(tau, 2 * n + 1);
    System.arraycopy(nu, 0, out, n, n);
    out[2 * n] = logZ;
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ep", "qp", "power-ep"})
  void blocksFollowAStraightforwardParallelLoop(String method) {
    SparseProblem sp = problem();
    int sweeps = 4;
    SparsePosterior blocked = SparseSiteLoop.run(sp, rule(method), PAR.withMaxSweeps(sweeps), null);
    assertEquals(
        sweeps, blocked.diagnostics().iterations(), blocked.diagnostics().toString());
    double[] ref = reference(sp, rule(method), sweeps);
    double worst = 0;
    for (int i = 0; i < N; i++) {
      worst = Math.max(worst, Math.abs(ref[i] - blocked.sites().tau()[i]) / (1 + Math.abs(ref[i])));
      worst = Math.max(
          worst, Math.abs(ref[N + i] - blocked.sites().nu()[i]) / (1 + Math.abs(ref[N + i])));
    }
    double logZ = ref[2 * N];
    System.out.printf(
        "%s, n = %d (3 blocks), %d sweeps: sites differ by %.2e, log evidence %.12f vs %.12f%n",
        method, N, sweeps, worst, blocked.logEvidence(), logZ);
    assertTrue(worst < 1e-10, "sites differ by " + worst);
    assertEquals(logZ, blocked.logEvidence(), 1e-10 * Math.abs(logZ), "log evidence");
  }

  /** With Z = X every block-parallel sparse method converges to its exact method's parallel fixed point. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ep", "qp", "power-ep"})
  void atTheTrainingInputsTheBlockFixedPointIsExactParallel(String method) {
    double[][] x = SmallProblems.inputs(81, 50, 2);
    double[] y = SmallProblems.labels(82, x);
    Problem p = Problem.of(SmallProblems.ard(2), x, y, Probit.get());
    Posterior exact = SiteLoop.run(p, rule(method), PAR, null);
    SparsePosterior sparse = SparseSiteLoop.run(new SparseProblem(p, x), rule(method), PAR, null);
    assertTrue(exact.diagnostics().converged(), exact.diagnostics().toString());
    assertTrue(sparse.diagnostics().converged(), sparse.diagnostics().toString());
    double worst = 0;
    for (int i = 0; i < y.length; i++) {
      worst = Math.max(worst, Math.abs(exact.sites().tau()[i] - sparse.sites().tau()[i]));
      worst = Math.max(worst, Math.abs(exact.sites().nu()[i] - sparse.sites().nu()[i]));
      worst = Math.max(worst, Math.abs(exact.mean()[i] - sparse.mean()[i]));
      worst = Math.max(worst, Math.abs(exact.variance()[i] - sparse.variance()[i]));
    }
    System.out.printf(
        "%s at Z = X, parallel: sites and moments differ by %.2e, log evidence %.12f vs %.12f%n",
        method, worst, exact.logEvidence(), sparse.logEvidence());
    assertTrue(worst < 1e-11, "sites and moments differ by " + worst);
    assertEquals(
        exact.logEvidence(),
        sparse.logEvidence(),
        1e-12 * Math.abs(exact.logEvidence()),
        "log evidence");
  }

  /** Every object a block sees, through Java serialisation and back (as to and from a Spark executor). */
  @SuppressWarnings("unchecked")
  private static <T> T roundTrip(T o) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
        out.writeObject(o);
      }
      try (ObjectInputStream in =
          new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
        return (T) in.readObject();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Blocks that hold serialised copies and answer with serialised results, in reverse block order. */
  private static final SiteBlocks SERIALISED = (problem, setup) -> {
    SiteBlock.Setup remote = roundTrip(setup);
    List<SiteBlock.Prepared> prepared = new ArrayList<>();
    for (SiteBlock.Data d : SiteBlock.split(problem.x(), problem.y())) {
      prepared.add(roundTrip(SiteBlock.prepare(roundTrip(d), remote)));
    }
    return new SiteBlocks.Run() {
      @Override
      public List<SiteBlock.Result> apply(SiteBlock.Step step) {
        SiteBlock.Step s = roundTrip(step);
        List<SiteBlock.Result> out = new ArrayList<>();
        for (int k = prepared.size() - 1; k >= 0; k--) {
          out.add(roundTrip(SiteBlock.apply(prepared.get(k), remote, s)));
        }
        out.sort(java.util.Comparator.comparingInt(SiteBlock.Result::index));
        return out;
      }

      @Override
      public void close() {}
    };
  };

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ep", "qp", "power-ep"})
  void serialisedBlocksGiveTheSameBits(String method) {
    SparseProblem sp = problem();
    SparsePosterior local = SparseSiteLoop.run(sp, rule(method), PAR, null);
    SparsePosterior remote = SparseSiteLoop.run(sp, rule(method), PAR, null, SERIALISED);
    assertTrue(local.diagnostics().converged(), local.diagnostics().toString());
    assertEquals(local.diagnostics().iterations(), remote.diagnostics().iterations());
    assertArrayEquals(local.sites().tau(), remote.sites().tau());
    assertArrayEquals(local.sites().nu(), remote.sites().nu());
    assertArrayEquals(local.mean(), remote.mean());
    assertArrayEquals(local.variance(), remote.variance());
    assertEquals(
        Double.doubleToRawLongBits(local.logEvidence()),
        Double.doubleToRawLongBits(remote.logEvidence()));
    double[][] xt = SmallProblems.inputs(74, 30, 2);
    assertArrayEquals(local.predict(xt).latentMean(), remote.predict(xt).latentMean());
    assertArrayEquals(local.predict(xt).latentVariance(), remote.predict(xt).latentVariance());
  }

  @Test
  void blocksRefuseTheSequentialSchedule() {
    SparseProblem sp = problem();
    assertThrows(
        IllegalArgumentException.class,
        () -> SparseSiteLoop.run(
            sp,
            rule("ep"),
            PAR.withSchedule(SiteLoop.Schedule.SEQUENTIAL),
            null,
            SiteBlocks.local()));
  }

  /**
   * The evidence gradient in block form (EP and Power EP): at the parallel fixed point it is the sequential
   * schedule's gradient at its (the same) fixed point, to the convergence of both, and serialised blocks give the
   * in-JVM blocks' bits.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ep", "power-ep"})
  void blockGradientIsTheSequentialOneAndCrossesSerialisation(String method) {
    SparseProblem sp = problem();
    SiteLoopOptions par = PAR.withGradient(true);
    SparsePosterior seq = SparseSiteLoop.run(
        sp, rule(method), par.withSchedule(SiteLoop.Schedule.SEQUENTIAL).withDamping(1), null);
    SparsePosterior local = SparseSiteLoop.run(sp, rule(method), par, null);
    SparsePosterior remote = SparseSiteLoop.run(sp, rule(method), par, null, SERIALISED);
    assertTrue(seq.diagnostics().converged(), seq.diagnostics().toString());
    assertTrue(local.diagnostics().converged(), local.diagnostics().toString());
    double[] gs = seq.logEvidenceGradient();
    double[] gl = local.logEvidenceGradient();
    double scale = 0;
    double worst = 0;
    for (int j = 0; j < gs.length; j++) {
      scale = Math.max(scale, Math.abs(gs[j]));
      worst = Math.max(worst, Math.abs(gs[j] - gl[j]));
    }
    double[][] zs = seq.inducingGradient();
    double[][] zl = local.inducingGradient();
    for (int a = 0; a < zs.length; a++) {
      for (int c = 0; c < zs[a].length; c++) {
        scale = Math.max(scale, Math.abs(zs[a][c]));
        worst = Math.max(worst, Math.abs(zs[a][c] - zl[a][c]));
      }
    }
    System.out.printf(
        "%s gradient: parallel blocks vs sequential differ by %.2e (largest entry %.3e)%n",
        method, worst, scale);
    assertTrue(worst < 1e-11 * scale, "gradients differ by " + worst + " (scale " + scale + ")");
    assertArrayEquals(gl, remote.logEvidenceGradient());
    for (int a = 0; a < zl.length; a++) {
      assertArrayEquals(zl[a], remote.inducingGradient()[a]);
    }
  }
}
