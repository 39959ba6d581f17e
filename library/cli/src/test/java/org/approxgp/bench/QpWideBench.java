package org.approxgp.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.approxgp.data.Dataset;
import org.approxgp.data.Split;
import org.approxgp.data.Splits;
import org.approxgp.data.Standardizer;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.ResultRow;
import org.approxgp.inference.Ep;
import org.approxgp.inference.Problem;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.Probit;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.model.FittedGp;
import org.approxgp.model.GpModel;
import org.approxgp.model.Methods;
import org.approxgp.model.Registry;
import org.approxgp.papers.qp.QpTable1;
import org.approxgp.projection.Projection;
import org.approxgp.projection.QpTable;
import org.approxgp.projection.QpTables;
import org.approxgp.projection.W2Projection;

/**
 * Benchmark (not a test): where QP Table 1's heavy trials (wine1, sonar, wine2, crabs: large optimised signal
 * variance) spend their projections. Draws the same (seed, fold) per data set as {@code Table1Bench} with the
 * same seed, then
 * <ul>
 *   <li>{@code count}: refits the fold's QP trial (EP's optimum as the start, implicit gradient) with a
 *       projection that delegates to {@link W2Projection#probitTabulated()} and records every cavity: how many
 *       each shipped table serves, how many go to the exact quadrature, their (μ, σ, z = μ/√(1 + σ²)) ranges,
 *       and the wall time spent in the exact ones;</li>
 *   <li>{@code time}: runs the experiment's own EP then QP trial ({@code QpTable1.experiment}, full mode) and
 *       prints the QP trial's thread CPU time and its row (TE, NTLL, log evidence).</li>
 * </ul>
 *
 * <p>Run: {@code java -cp ... org.approxgp.bench.QpWideBench count|time DATASETS [SEED]} (DATASETS comma
 * separated; SEED default 1, as {@code bin/bench table1 1 1}).
 */
public final class QpWideBench {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private QpWideBench() {}

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    List<String> wanted = Arrays.asList(args[1].split(","));
    long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
    QpTable1.Config full =
        QpTable1.Config.forMode(ProjectPaths.Mode.FULL, List.of("ep", "qp", "vb"));
    Experiment<QpTable1.Config, QpTable1.Key> exp = QpTable1.experiment(full);
    Random rng = new Random(seed);
    for (String d : full.datasets()) {
      long s = rng.nextInt(full.seeds());
      int f = rng.nextInt(full.folds());
      if (!wanted.contains(d)) {
        continue;
      }
      if (mode.equals("count")) {
        count(d, s, f);
      } else {
        exp.trial().run(full, new QpTable1.Key(d, "ep", s, f));
        long c0 = CPU.getCurrentThreadCpuTime();
        ResultRow row = exp.trial().run(full, new QpTable1.Key(d, "qp", s, f));
        double cpu = (CPU.getCurrentThreadCpuTime() - c0) * 1e-9;
        System.out.printf(
            Locale.ROOT, "%-8s seed %2d fold %d  QP cpu %8.2f s  row %s%n", d, s, f, cpu, row);
      }
    }
  }

  /** The fold problem of QP Table 1's clean protocol (as {@code QpTable1.foldProblem}). */
  static Problem foldProblem(String dataset, long seed, int fold) {
    Dataset data = QpTable1.dataset(dataset);
    Split split = Splits.kFold(data.size(), 10, seed).get(fold);
    Dataset train = data.rows(split.train());
    Standardizer st = Standardizer.fit(train.features());
    return Problem.of(
        SquaredExponential.iso(1.0, 1.0), st.apply(train.features()), train.target(), Probit.get());
  }

  private static void count(String d, long s, int f) {
    Problem problem = foldProblem(d, s, f);
    FittedGp ep = GpModel.fit(
        problem, Registry.inference("ep"), GpModel.FitOptions.optimize(problem.kernel()));
    Recorder rec = new Recorder();
    long w0 = System.nanoTime();
    FittedGp qp = GpModel.fit(
        problem.withKernel(ep.kernel()),
        Methods.qp(Ep.Options.defaults().withProjection(rec), Methods.QpGradientKind.IMPLICIT),
        GpModel.FitOptions.optimize(problem.kernel()));
    double wall = (System.nanoTime() - w0) * 1e-9;
    double[] th = qp.kernel().logHyperparameters();
    System.out.printf(
        Locale.ROOT,
        "%-8s seed %2d fold %d n=%d  signal variance %.4g, log lengthscale %.3f;"
            + " QP fit %.2f s wall, %d optimiser iterations%n",
        d,
        s,
        f,
        problem.size(),
        Math.exp(th[th.length - 1]),
        th[0],
        wall,
        qp.iterations());
    rec.print(wall);
  }

  /** Delegates to the shipped tables and records every cavity (single-threaded use). */
  static final class Recorder implements Projection {
    final W2Projection inner = W2Projection.probitTabulated();
    final QpTable narrow = QpTables.probit();
    final List<double[]> cavities = new ArrayList<>();
    long exactNanos;
    long allNanos;

    @Override
    public TiltedMoments project(Likelihood likelihood, double y, double m, double v) {
      boolean inNarrow = narrow.covers(likelihood, y, m, v);
      boolean tab = inNarrow || coveredByOther(likelihood, y, m, v);
      long t0 = System.nanoTime();
      TiltedMoments t = inner.project(likelihood, y, m, v);
      long dt = System.nanoTime() - t0;
      allNanos += dt;
      if (!tab) {
        exactNanos += dt;
      }
      cavities.add(new double[] {y * m, Math.sqrt(v), inNarrow ? 0 : (tab ? 1 : 2)});
      return t;
    }

    /** Whether a table other than the narrow one serves this cavity (none before the wide table). */
    boolean coveredByOther(Likelihood likelihood, double y, double m, double v) {
      return inner.covers(likelihood, y, m, v) && !narrow.covers(likelihood, y, m, v);
    }

    @Override
    public String name() {
      return "w2-recorded";
    }

    void print(double wall) {
      int[] n = new int[3];
      double[] lo = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY};
      double[] hi = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
      int sigmaOver10 = 0;
      int muOut = 0;
      int[] zHist = new int[8];
      double[] zEdges = {-1e300, -10, -5, -2, 0, 2, 5, 8, 1e300};
      for (double[] c : cavities) {
        int k = (int) c[2];
        n[k]++;
        if (k == 0) {
          continue;
        }
        double z = c[0] / Math.sqrt(1 + c[1] * c[1]);
        double[] q = {c[0], c[1], z};
        for (int a = 0; a < 3; a++) {
          lo[a] = Math.min(lo[a], q[a]);
          hi[a] = Math.max(hi[a], q[a]);
        }
        if (c[1] > 10) {
          sigmaOver10++;
        } else {
          muOut++;
        }
        for (int b = 0; b < 8; b++) {
          if (z >= zEdges[b] && z < zEdges[b + 1]) {
            zHist[b]++;
          }
        }
      }
      System.out.printf(
          Locale.ROOT,
          "  projections %d: narrow table %d, other table %d, exact %d%n",
          cavities.size(),
          n[0],
          n[1],
          n[2]);
      System.out.printf(
          Locale.ROOT,
          "  off the narrow table: sigma > 10: %d, sigma <= 10 (|mu| > 10 or sigma < 0.1):"
              + " %d; y*mu in [%.4g, %.4g], sigma in [%.4g, %.4g], z in [%.4g, %.4g]%n",
          sigmaOver10,
          muOut,
          lo[0],
          hi[0],
          lo[1],
          hi[1],
          lo[2],
          hi[2]);
      System.out.printf(
          Locale.ROOT,
          "  z histogram of those (edges -10 -5 -2 0 2 5 8): %s%n",
          Arrays.toString(zHist));
      System.out.printf(
          Locale.ROOT,
          "  time in projections %.2f s, in exact ones %.2f s (%.1f%% of the QP fit's"
              + " %.2f s wall; %.3f ms per exact projection)%n",
          allNanos * 1e-9,
          exactNanos * 1e-9,
          100 * exactNanos * 1e-9 / wall,
          wall,
          n[2] == 0 ? 0 : exactNanos * 1e-6 / n[2]);
    }
  }
}
