package org.approxgp.papers.qp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.ResultRow;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.kernel.Kernel;
import org.approxgp.model.FittedGp;
import org.approxgp.model.GpModel;
import org.approxgp.model.Registry;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * QP paper Figure 1a: predictive variances of the latent function at test points, QP against EP,
 * each at its own fitted hyperparameters and fixed point (the paper's empirical claim: no point above
 * the diagonal). Same protocol as {@link QpTable1} (10-fold split by seed, standardised features,
 * se-iso, QP started from EP's optimum).
 */
public final class QpFigure1 {
  public static final String NAME = "qp-figure1a";

  /**
   * @param datasets Table 1 data sets (see {@link QpTable1#dataset})
   * @param seeds seeds 0..seeds−1
   * @param folds folds per seed (≤ 10)
   * @param sameHyperparameters also run QP at EP's hyperparameters (the fixed-point comparison
   *     with θ held equal), besides QP at its own optimum
   */
  public record Config(List<String> datasets, int seeds, int folds, boolean sameHyperparameters) {
    public Config {
      datasets = List.copyOf(datasets);
    }

    /** smoke: crabs, one fold; quick: four data sets, one fold each; full: all nine, 10 folds of seed 0. */
    public static Config forMode(ProjectPaths.Mode mode) {
      return switch (mode) {
        case SMOKE -> new Config(List.of("crabs"), 1, 1, true);
        case QUICK -> new Config(List.of("ionosphere", "crabs", "sonar", "wine1"), 1, 1, true);
        case FULL -> new Config(QpTable1.DATASETS, 1, 10, true);
      };
    }
  }

  /** One trial: fold {@code fold} of seed {@code seed}'s 10-fold split of {@code dataset}. */
  public record Key(String dataset, long seed, int fold) {}

  /**
   * Figure 1b's variances at the 112 test years of one coal split.
   *
   * @param ep     EP at its fitted hyperparameters
   * @param qpOwn  QP at its own fitted hyperparameters (optimised from EP's optimum)
   * @param qpSame QP at EP's hyperparameters, started from EP's sites
   */
  public record CoalVariances(double[] ep, double[] qpOwn, double[] qpSame) {}

  private QpFigure1() {}

  /** Trials: every data set × seed × fold. */
  public static Experiment<Config, Key> experiment(Config c) {
    List<Key> keys = new ArrayList<>();
    for (String d : c.datasets()) {
      for (int s = 0; s < c.seeds(); s++) {
        for (int f = 0; f < c.folds(); f++) {
          keys.add(new Key(d, s, f));
        }
      }
    }
    return Experiment.of(NAME, c, Key.class, keys, QpFigure1::trial);
  }

  static ResultRow trial(Config c, Key key) {
    QpTable1.FoldProblem fp = QpTable1.foldProblem(key.dataset(), "se-iso", key.seed(), key.fold());
    Problem problem = fp.problem();
    Kernel k0 = problem.kernel();
    double[][] xTest = fp.xTest();
    FittedGp ep = GpModel.fit(problem, Registry.inference("ep"), GpModel.FitOptions.optimize(k0));
    FittedGp qp = GpModel.fit(
        problem.withKernel(ep.kernel()), Registry.inference("qp"), GpModel.FitOptions.optimize(k0));
    Prediction pe = ep.predict(xTest);
    Prediction pq = qp.predict(xTest);
    ResultRow.Builder b = ResultRow.builder()
        .put("var_ep", join(pe.latentVariance()))
        .put("var_qp", join(pq.latentVariance()))
        .put(
            "signal_variance_ep",
            ((org.approxgp.kernel.SquaredExponential) ep.kernel()).signalVariance())
        .put(
            "signal_variance_qp",
            ((org.approxgp.kernel.SquaredExponential) qp.kernel()).signalVariance());
    if (c.sameHyperparameters()) {
      // QP at EP's θ, started from EP's sites: the two algorithms' fixed points for one model
      org.approxgp.inference.Posterior same = org.approxgp.inference.Qp.infer(
          problem.withKernel(ep.kernel()),
          org.approxgp.inference.Qp.options(),
          ep.posterior().sites());
      b.put("var_qp_same", join(same.predict(xTest).latentVariance()));
    }
    return b.build();
  }

  private static String join(double[] v) {
    return Arrays.stream(v).mapToObj(Double::toString).collect(Collectors.joining(" "));
  }

  private static double[] split(String s) {
    return Arrays.stream(s.trim().split(" ")).mapToDouble(Double::parseDouble).toArray();
  }

  /**
   * Figure 1b: predictive latent variances at the 112 test years of the coal split of {@code seed}
   * (the Mining protocol of {@link QpMining}).
   */
  public static CoalVariances coalVariances(long seed) {
    QpMining.CoalSplit d = QpMining.split(seed);
    Kernel k0 = org.approxgp.kernel.SquaredExponential.iso(
        QpMining.INITIAL_LENGTHSCALE, QpMining.INITIAL_SIGNAL_VARIANCE);
    Problem problem = new Problem(
        k0,
        d.xTrain(),
        d.trainCounts(),
        org.approxgp.likelihood.PoissonSquareLink.get(),
        QpMining.PRIOR_MEAN);
    FittedGp ep = GpModel.fit(problem, Registry.inference("ep"), GpModel.FitOptions.optimize(k0));
    FittedGp qp = GpModel.fit(
        problem.withKernel(ep.kernel()), Registry.inference("qp"), GpModel.FitOptions.optimize(k0));
    org.approxgp.inference.Posterior same = org.approxgp.inference.Qp.infer(
        problem.withKernel(ep.kernel()),
        org.approxgp.inference.Qp.options(),
        ep.posterior().sites());
    return new CoalVariances(
        ep.predict(d.xTest()).latentVariance(),
        qp.predict(d.xTest()).latentVariance(),
        same.predict(d.xTest()).latentVariance());
  }

  /**
   * One row per test point: data set, EP variance, and QP variance from column {@code qpColumn}
   * ({@code var_qp}: QP at its own optimum; {@code var_qp_same}: QP at EP's hyperparameters), renamed
   * {@code var_qp}.
   */
  public static Table points(Table rows, String qpColumn) {
    StringColumn ds = StringColumn.create("data");
    DoubleColumn ve = DoubleColumn.create("var_ep");
    DoubleColumn vq = DoubleColumn.create("var_qp");
    for (int i = 0; i < rows.rowCount(); i++) {
      double[] e = split(rows.stringColumn("var_ep").get(i));
      double[] q = split(rows.stringColumn(qpColumn).get(i));
      for (int j = 0; j < e.length; j++) {
        ds.append(rows.stringColumn("dataset").get(i));
        ve.append(e[j]);
        vq.append(q[j]);
      }
    }
    return Table.create("test-point predictive variances (" + qpColumn + ")", ds, ve, vq);
  }

  /**
   * Per data set: test points, how many have σ²_QP &gt; σ²_EP (strictly, beyond a relative 1e-9 for
   * round-off), and the largest ratio σ²_QP/σ²_EP.
   */
  public static Table aboveDiagonal(Table points) {
    StringColumn ds = StringColumn.create("data");
    DoubleColumn n = DoubleColumn.create("test points");
    DoubleColumn above = DoubleColumn.create("QP above EP");
    DoubleColumn maxRatio = DoubleColumn.create("max var_qp / var_ep");
    List<String> names = points.stringColumn("data").unique().asList();
    names.add("all");
    for (String d : names) {
      int count = 0;
      int up = 0;
      double mr = 0;
      for (int i = 0; i < points.rowCount(); i++) {
        if (!d.equals("all") && !points.stringColumn("data").get(i).equals(d)) {
          continue;
        }
        double e = points.doubleColumn("var_ep").get(i);
        double q = points.doubleColumn("var_qp").get(i);
        count++;
        up += q > e * (1 + 1e-9) ? 1 : 0;
        mr = Math.max(mr, q / e);
      }
      ds.append(d);
      n.append(count);
      above.append(up);
      maxRatio.append(mr);
    }
    return Table.create("points above the diagonal", ds, n, above, maxRatio);
  }
}
