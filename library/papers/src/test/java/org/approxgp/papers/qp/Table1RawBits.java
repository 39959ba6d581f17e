package org.approxgp.papers.qp;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.model.FittedGp;

/**
 * Benchmark helper (not a test): the raw bits ({@link Double#doubleToRawLongBits}) of QP Table 1 trials'
 * outputs, to compare two builds to the bit. For each kernel (se-iso at full scale with QP optimised, se-ard
 * with QP at EP's optimum), protocol, data set and (seed, fold) pair, the EP, QP and VB trials are fitted with
 * hyperparameter optimisation ({@link QpTable1#fit}) and one line per output is printed: the log evidence, the
 * learned log hyperparameters, the optimiser's iteration and evaluation counts, and every test point's latent
 * mean and variance and log predictive density (from which TE and NTLL follow), each as its bits in hex with
 * the value beside it. Run the same command against two builds' classes and diff the outputs.
 *
 * <p>Run: {@code java -cp CLASSPATH org.approxgp.papers.qp.Table1RawBits [DATASETS] [PAIRS]} (defaults
 * crabs,glass,ionosphere,pima,sonar and 0:0,3:7: comma-separated seed:fold pairs).
 */
public final class Table1RawBits {

  private Table1RawBits() {}

  public static void main(String[] args) {
    List<String> datasets =
        List.of((args.length > 0 ? args[0] : "crabs,glass,ionosphere,pima,sonar").split(","));
    String[] pairs = (args.length > 1 ? args[1] : "0:0,3:7").split(",");
    List<QpTable1.Config> configs = new ArrayList<>();
    for (String protocol : List.of("clean", "authors")) {
      QpTable1.Protocol p = QpTable1.Protocol.of(protocol);
      configs.add(QpTable1.Config.forMode(ProjectPaths.Mode.FULL, List.of("ep", "qp", "vb"))
          .withProtocol(p));
      configs.add(QpTable1.Config.ardForMode(ProjectPaths.Mode.FULL, List.of("ep", "qp", "vb"))
          .withProtocol(p));
    }
    for (QpTable1.Config c : configs) {
      for (String d : datasets) {
        for (String pair : pairs) {
          String[] sf = pair.split(":");
          long seed = Long.parseLong(sf[0]);
          int fold = Integer.parseInt(sf[1]);
          for (String m : List.of("ep", "qp", "vb")) {
            String tag = String.join(" ", c.protocol().name(), c.kernel(), d, sf[0], sf[1], m);
            QpTable1.Key key = new QpTable1.Key(d, m, seed, fold);
            try {
              print(tag, c, key);
            } catch (RuntimeException e) {
              System.out.println(tag + " failed " + e);
            }
          }
        }
      }
    }
  }

  private static void print(String tag, QpTable1.Config c, QpTable1.Key key) {
    FittedGp fit = QpTable1.fit(c, key);
    QpTable1.FoldProblem t =
        QpTable1.foldProblem(key.dataset(), c.kernel(), key.seed(), key.fold(), c.protocol());
    line(tag, "log_evidence", fit.logEvidence());
    double[] theta = fit.kernel().logHyperparameters();
    for (int j = 0; j < theta.length; j++) {
      line(tag, "theta" + j, theta[j]);
    }
    System.out.printf(
        Locale.ROOT,
        "%s counts %d %d %s%n",
        tag,
        fit.iterations(),
        fit.evaluations(),
        fit.converged());
    var pred = fit.predict(t.xTest());
    double[] lp = fit.logPredictive(t.xTest(), t.yTest());
    for (int i = 0; i < lp.length; i++) {
      line(tag, "mean" + i, pred.latentMean()[i]);
      line(tag, "var" + i, pred.latentVariance()[i]);
      line(tag, "logp" + i, lp[i]);
    }
  }

  private static void line(String tag, String what, double v) {
    System.out.printf(
        Locale.ROOT, "%s %s %016x %.17g%n", tag, what, Double.doubleToRawLongBits(v), v);
  }
}
