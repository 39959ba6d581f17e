package org.approxgp.papers.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.approxgp.data.Dataset;
import org.approxgp.experiment.ResultRow;
import org.approxgp.metrics.Metrics;
import org.approxgp.model.FittedGp;
import org.junit.jupiter.api.Test;

/**
 * A Table 1 trial's test metrics are those of its fitted model's own predictions, to the bit (the trial computes
 * the log predictive densities from the latent predictions it already holds), and the data sets it loads once per
 * JVM stay as loaded whatever a caller does with the copies it is handed.
 */
class QpTable1TrialTest {

  private static final QpTable1.Config CONFIG =
      new QpTable1.Config(List.of("wine2"), List.of("ep", "vb"), "se-iso", 1, 1, false);

  @Test
  void ntllIsTheFittedModelsLogPredictive() {
    for (String method : List.of("ep", "vb")) {
      QpTable1.Key key = new QpTable1.Key("wine2", method, 0, 0);
      ResultRow row = QpTable1.trial(CONFIG, key);
      FittedGp fit = QpTable1.fit(CONFIG, key);
      QpTable1.FoldProblem fp = QpTable1.foldProblem("wine2", "se-iso", 0, 0);
      double ntll = Metrics.negativeLogLikelihood(fit.logPredictive(fp.xTest(), fp.yTest()));
      assertEquals(
          Double.doubleToRawLongBits(ntll),
          Double.doubleToRawLongBits(row.getDouble("ntll")),
          method + ": trial NTLL " + row.getDouble("ntll") + ", model's " + ntll);
      assertEquals(
          Double.doubleToRawLongBits(fit.logEvidence()),
          Double.doubleToRawLongBits(row.getDouble("log_evidence")),
          method);
    }
  }

  @Test
  void loadedDataSetsAreNotChangedThroughTheirCopies() {
    Dataset first = QpTable1.dataset("crabs");
    double[][] x = first.features();
    double[] y = first.target();
    double x00 = x[0][0];
    double y0 = y[0];
    x[0][0] = Double.NaN;
    y[0] = 7;
    Dataset again = QpTable1.dataset("crabs");
    assertEquals(x.length, again.size());
    assertEquals(x00, again.features()[0][0]);
    assertEquals(y0, again.target()[0]);
  }
}
