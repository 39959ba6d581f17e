package org.approxgp.experiment;

import java.util.ArrayList;
import java.util.List;
import org.approxgp.experiment.coal.CoalExperiment;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * QP paper Table 1, "Mining" row, on the resumable {@link Runner}: one trial per seed runs
 * {@link CoalExperiment#trial} (EP, QP from EP's optimum, VB) and stores each method's TE, NTLL and
 * hyperparameters, plus the σ²_QP ≤ σ²_EP check over sites and test years.
 */
public final class QpMining {
  public static final String NAME = "qp-mining";

  /** @param seeds seeds 0..seeds−1 (the paper: 200) */
  public record Config(int seeds, List<String> methods) {
    public Config {
      methods = List.copyOf(methods);
    }

    /** smoke: 2 seeds; quick: 10; full: the paper's 200. */
    public static Config forMode(ProjectPaths.Mode mode) {
      return new Config(mode.pick(2, 10, 200), CoalExperiment.METHODS);
    }
  }

  private QpMining() {}

  public static Experiment<Config> experiment(Config c) {
    List<TrialKey> keys = new ArrayList<>();
    for (int s = 0; s < c.seeds(); s++) {
      keys.add(TrialKey.of("coal", s, 0));
    }
    return Experiment.of(NAME, c, keys, QpMining::trial);
  }

  static ResultRow trial(Config c, TrialKey key) {
    CoalExperiment.SeedResult r = CoalExperiment.trial(key.seed(), c.methods());
    ResultRow.Builder b = ResultRow.builder();
    for (CoalExperiment.Row row : r.rows()) {
      if (!row.error().isEmpty()) {
        throw new IllegalStateException(row.method() + " failed on seed " + key.seed() + ": " + row.error());
      }
      String m = row.method();
      b.put("te_" + m, row.te()).put("ntll_" + m, row.ntll()).put("lengthscale_" + m, row.lengthscale())
          .put("signal_variance_" + m, row.signalVariance()).put("neg_log_evidence_" + m, row.negLogEvidence())
          .put("converged_" + m, row.converged());
    }
    return b.put("qp_variance_violations", (long) r.qpVarianceViolations())
        .put("variance_comparisons", (long) r.varianceComparisons()).build();
  }

  /** Mean ± sd over seeds of TE and NTLL per method (×10⁻² and ×10⁻³ as in the paper) beside the paper's. */
  public static Table summary(Table rows, List<String> methods) {
    StringColumn ms = StringColumn.create("method");
    DoubleColumn te = DoubleColumn.create("TE ×1e-2");
    DoubleColumn teSd = DoubleColumn.create("TE sd");
    DoubleColumn pte = DoubleColumn.create("paper TE");
    DoubleColumn nt = DoubleColumn.create("NTLL ×1e-3");
    DoubleColumn ntSd = DoubleColumn.create("NTLL sd");
    DoubleColumn pnt = DoubleColumn.create("paper NTLL");
    double[][] paper = QpTable1.PAPER.get("mining");
    List<String> order = List.of("ep", "qp", "vb");
    for (String m : methods) {
      double[] t = rows.doubleColumn("te_" + m).asDoubleArray();
      double[] n = rows.doubleColumn("ntll_" + m).asDoubleArray();
      ms.append(m);
      te.append(100 * Summaries.mean(t));
      teSd.append(100 * Summaries.sd(t));
      nt.append(1000 * Summaries.mean(n));
      ntSd.append(1000 * Summaries.sd(n));
      int j = order.indexOf(m);
      pte.append(j < 0 ? Double.NaN : paper[j][0]);
      pnt.append(j < 0 ? Double.NaN : paper[3 + j][0]);
    }
    return Table.create("Mining (coal), " + rows.rowCount() + " seeds", ms, te, teSd, pte, nt, ntSd, pnt);
  }
}
