package org.approxgp.papers.qp;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.approxgp.model.FittedGp;
import org.approxgp.model.GpModel;
import org.approxgp.model.Methods;
import org.approxgp.model.Registry;

/**
 * How often an optimised Table 1 fit ends converged , one TSV row per fit: data set, kernel,
 * method, seed, fold, the fit's converged flag, the optimiser's status, log evidence, iterations, evaluations,
 * active bounds. Uses only API that the lbfgs4j-based build also has, so the same file compiled against either
 * build compares them. Not a test (no assertions, minutes of CPU):
 *
 * <pre>
 *   java -cp library/papers/target/classes:library/papers/target/test-classes:$(cat cp.txt) \
 *       org.approxgp.papers.qp.LbfgsConvergenceBench THREADS SEEDS FOLDS [datasets,..] [methods,..] [kernels,..]
 * </pre>
 */
public final class LbfgsConvergenceBench {

  private LbfgsConvergenceBench() {}

  public static void main(String[] args) throws Exception {
    int threads = Integer.parseInt(args[0]);
    int seeds = Integer.parseInt(args[1]);
    int folds = Integer.parseInt(args[2]);
    List<String> datasets = args.length > 3 ? List.of(args[3].split(",")) : QpTable1.DATASETS;
    List<String> methods =
        args.length > 4 ? List.of(args[4].split(",")) : List.of("ep", "vb", "laplace");
    List<String> kernels =
        args.length > 5 ? List.of(args[5].split(",")) : List.of("se-iso", "se-ard");
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<String>> rows = new ArrayList<>();
    for (String d : datasets) {
      for (String k : kernels) {
        for (String m : methods) {
          for (int s = 0; s < seeds; s++) {
            for (int f = 0; f < folds; f++) {
              long seed = s;
              int fold = f;
              rows.add(pool.submit(() -> row(d, k, m, seed, fold)));
            }
          }
        }
      }
    }
    System.out.println(
        "dataset\tkernel\tmethod\tseed\tfold\tconverged\tstatus\tlog_evidence\titerations\tevaluations"
            + "\tactive\tseconds");
    for (Future<String> r : rows) {
      System.out.println(r.get());
      System.out.flush();
    }
    pool.shutdown();
  }

  static String row(String d, String k, String m, long seed, int fold) {
    QpTable1.FoldProblem fp = QpTable1.foldProblem(d, k, seed, fold);
    long t0 = System.nanoTime();
    try {
      GpModel.FitOptions opt = GpModel.FitOptions.optimize(fp.problem().kernel());
      FittedGp fit;
      if (m.equals("qp")) {
        // as QpTable1's trial: QP's hyperparameters from EP's optimum, EP-form evidence at QP's
        // sites
        FittedGp ep = GpModel.fit(fp.problem(), Registry.inference("ep"), opt);
        fit = GpModel.fit(
            fp.problem().withKernel(ep.kernel()),
            Methods.qp(org.approxgp.inference.Qp.options(), QpTable1.qpGradient()),
            opt);
      } else {
        fit = GpModel.fit(fp.problem(), Registry.inference(m), opt);
      }
      return String.format(
          Locale.ROOT,
          "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%.12f\t%d\t%d\t%s\t%.1f",
          d,
          k,
          m,
          seed,
          fold,
          fit.converged(),
          fit.optimizerStatus().replace('\t', ' '),
          fit.logEvidence(),
          fit.iterations(),
          fit.evaluations(),
          fit.activeBounds(),
          (System.nanoTime() - t0) * 1e-9);
    } catch (RuntimeException e) {
      return String.format(
          Locale.ROOT,
          "%s\t%s\t%s\t%d\t%d\tfalse\tEXCEPTION %s\tNaN\t0\t0\t[]\t%.1f",
          d,
          k,
          m,
          seed,
          fold,
          e.toString().replace('\t', ' '),
          (System.nanoTime() - t0) * 1e-9);
    }
  }
}
