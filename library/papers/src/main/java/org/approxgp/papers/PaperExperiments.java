package org.approxgp.papers;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.approxgp.experiment.ExperimentCatalog;
import org.approxgp.experiment.ExperimentSpec;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.papers.qp.QpAtScale;
import org.approxgp.papers.qp.QpFigure1;
import org.approxgp.papers.qp.QpMining;
import org.approxgp.papers.qp.QpMiningTables;
import org.approxgp.papers.qp.QpTable1;
import org.approxgp.papers.qp.QpTable1Tables;
import org.approxgp.papers.qp.QpTruth;
import org.approxgp.papers.rep.RepReadings;
import org.approxgp.papers.rep.RepSynthetic;
import org.approxgp.papers.rep.RepUci;
import org.approxgp.papers.svbssgp.SvbssgpFigures;

/**
 * The papers' experiments for the {@link org.approxgp.experiment.ExperimentRegistry} (registered in
 * {@code META-INF/services/org.approxgp.experiment.ExperimentCatalog}), under the notebooks' names
 * where one notebook runs one experiment, each with the config its notebook uses in each run mode
 * and its notebook's summary table. {@code rep-figure1} computes posteriors directly, not through
 * the runner, and so is not here.
 */
public final class PaperExperiments implements ExperimentCatalog {

  /** The QP paper's methods, as the qp-table1 notebook runs them. */
  static final List<String> QP_METHODS = List.of("ep", "qp", "vb");

  @Override
  public List<ExperimentSpec<?, ?>> experiments() {
    return List.of(
        ExperimentSpec.of(
                "qp-table1",
                "QP paper Table 1: EP/QP/VB test error and NTLL, SE-iso",
                QpTable1.Config.class,
                m -> QpTable1.Config.forMode(m, QP_METHODS),
                QpTable1::experiment)
            .withSummary((c, r) -> QpTable1Tables.summary(r.table()))
            .withVariants(PaperExperiments::qpTable1Variants),
        ExperimentSpec.of(
                "qp-table1-ard",
                "QP paper Table 1 with the SE-ARD kernel (the paper's text)",
                QpTable1.Config.class,
                m -> QpTable1.Config.ardForMode(m, QP_METHODS),
                QpTable1::experiment)
            .withSummary((c, r) -> QpTable1Tables.summary(r.table())),
        ExperimentSpec.of(
                "qp-figure1",
                "QP paper Figure 1a: QP vs EP predictive variances",
                QpFigure1.Config.class,
                QpFigure1.Config::forMode,
                QpFigure1::experiment)
            .withSummary((c, r) -> QpFigure1.aboveDiagonal(
                QpFigure1.points(r.table(), c.sameHyperparameters() ? "var_qp_same" : "var_qp"))),
        ExperimentSpec.of(
                "compare",
                "EP, QP, Laplace, VB against a sampled truth on QP Table 1 data sets",
                QpTruth.Config.class,
                QpTruth::config,
                QpTruth::experiment)
            .withSummary((c, r) -> QpTruth.summary(r.table(), c.methods())),
        ExperimentSpec.of(
                QpAtScale.NAME,
                "QP paper's question at scale: sparse and exact EP vs QP test error and NLL against n",
                QpAtScale.Config.class,
                QpAtScale.Config::forMode,
                QpAtScale::experiment)
            .withSummary((c, r) -> QpAtScale.summary(r.table())),
        ExperimentSpec.of(
                "qp-mining",
                "QP paper Table 1, coal-mining row: Poisson square link",
                QpMining.Config.class,
                QpMining.Config::forMode,
                QpMining::experiment)
            .withSummary((c, r) -> QpMiningTables.summary(r.table(), c.methods()))
            .withVariants(PaperExperiments::qpMiningVariants),
        ExperimentSpec.of(
                "rep-synthetic",
                "REP paper Figure 4: EP / Power EP / REP on synthetic data with flipped labels",
                RepSynthetic.Config.class,
                m -> RepSynthetic.Config.forMode(m, "keep"),
                RepSynthetic::experiment)
            .withSummary((c, r) -> RepSynthetic.summary(r.table()))
            .withVariants(m -> List.of(RepSynthetic.Config.forMode(m, "clip"))),
        ExperimentSpec.of(
                "rep-synthetic-figures",
                "REP paper Figures 2-3: decision boundaries and R(iter) traces on synthetic data",
                RepSynthetic.Config.class,
                m -> RepSynthetic.Config.forMode(m, "keep"),
                RepSynthetic::figureExperiment)
            .withSummary((c, r) -> RepSynthetic.figureSummary(r)),
        ExperimentSpec.of(
                "rep-uci",
                "REP paper Figures 5-6: test error on UCI data with label flips",
                RepUci.Config.class,
                m -> RepUci.Config.forMode(m, "keep"),
                RepUci::experiment)
            .withSummary((c, r) -> RepUci.summary(r.table(), c))
            .withVariants(m -> List.of(RepUci.Config.forMode(m, "clip"))),
        ExperimentSpec.of(
                "rep-readings",
                "REP paper Figures 2-6 per reading of Relaxed EP and penalty (the rep-readings notebook's fits)",
                RepReadings.Config.class,
                RepReadings.Config::forMode,
                RepReadings::experiment)
            .withSummary((c, r) -> RepReadings.failures(r.table())),
        ExperimentSpec.of(
                "svbssgp-gamma",
                "sVBSSGP paper Figs. 1, 2a, 4: sVBSSGP for each γ",
                SvbssgpFigures.Config.class,
                SvbssgpFigures.Config::forMode,
                SvbssgpFigures::gamma)
            .withSummary((c, r) -> SvbssgpFigures.finalByGamma(r)),
        ExperimentSpec.of(
                "svbssgp-methods",
                "sVBSSGP paper Table 1, Figs. 2b-d, 5: the five models at the paper's settings",
                SvbssgpFigures.Config.class,
                SvbssgpFigures.Config::forMode,
                SvbssgpFigures::methods)
            .withSummary((c, r) -> SvbssgpFigures.table1(r)),
        ExperimentSpec.of(
                "svbssgp-samples",
                "sVBSSGP paper Fig. 3: sVBSSGP for each r",
                SvbssgpFigures.Config.class,
                SvbssgpFigures.Config::forMode,
                SvbssgpFigures::samples)
            .withSummary((c, r) ->
                r.summary(List.of("role", "setting"), List.of("final_rmse", "final_mnlp"))),
        ExperimentSpec.of(
                "svbssgp-partitions",
                "sVBSSGP and PIC++ with honest vs leaky k-means partitions",
                SvbssgpFigures.Config.class,
                SvbssgpFigures.Config::forMode,
                SvbssgpFigures::partitionings)
            .withSummary((c, r) ->
                r.summary(List.of("method", "setting"), List.of("final_rmse", "final_mnlp"))));
  }

  /**
   * The qp-table1 notebook's other runs of a mode: the authors' protocol, and Glass under it without the Id column
   * (data sets, methods, seeds and folds select trials within a store, so these are the two stores).
   */
  static List<QpTable1.Config> qpTable1Variants(ProjectPaths.Mode m) {
    QpTable1.Config c = QpTable1.Config.forMode(m, QP_METHODS);
    QpTable1.Protocol authors = QpTable1.Protocol.authors();
    return List.of(c.withProtocol(authors), c.withProtocol(authors.withGlassId(false)));
  }

  /**
   * The qp-table1 notebook's other coal-mining runs of a mode: the authors' protocol with every method, and EP and
   * VB under each single switch of it whose effect is computed (all but populationSd, a summary choice, and
   * exactNtll, read from the authors' run).
   */
  static List<QpMining.Config> qpMiningVariants(ProjectPaths.Mode m) {
    int seeds = QpMining.Config.forMode(m).seeds();
    QpMining.Protocol authors = QpMining.Protocol.authors();
    List<QpMining.Config> out = new ArrayList<>();
    out.add(new QpMining.Config(seeds, QpMining.METHODS, authors));
    for (Map.Entry<String, QpMining.Protocol> e :
        QpMining.singleSwitches(authors).entrySet()) {
      if (!e.getKey().equals("populationSd") && !e.getKey().equals("exactNtll")) {
        out.add(new QpMining.Config(seeds, List.of("ep", "vb"), e.getValue()));
      }
    }
    return out;
  }
}
