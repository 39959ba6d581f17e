package org.approxgp.bench;

import java.util.Arrays;
import org.approxgp.anchors.GpmlIonosphere;
import org.approxgp.inference.Ep;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Probit;
import org.approxgp.projection.QpTables;
import org.approxgp.projection.W2Projection;

/**
 * Benchmark (not a unit test): EP, QP with the lookup table and exact QP side by side on the GPML
 * Ionosphere anchor split (se-iso, ℓ = 2.0, signal variance 2.25), default options (RMS site change
 * &lt; 1e-6), from the prior. Runs are interleaved, repeated, and the median wall time of each is
 * reported with the ratios QP_table/EP and QP_exact/EP (targets: ≤ 1.2 and ≤ 10).
 *
 * <p>Run: {@code mvn -q test-compile} then
 * {@code java -cp target/test-classes:target/classes:<deps> org.approxgp.bench.QpBench [reps]}.
 */
public final class QpBench {
  private QpBench() {}

  public static void main(String[] args) {
    int reps = args.length > 0 ? Integer.parseInt(args[0]) : 7;
    GpmlIonosphere.Split train = GpmlIonosphere.train();
    Problem problem =
        Problem.of(SquaredExponential.iso(2.0, 2.25), train.x(), train.y(), Probit.get());
    QpTables.probit(); // load the table outside the timed region
    Ep.Options ep = Ep.Options.defaults().withLoop(l -> l.withGradient(false));
    Ep.Options table = ep.withProjection(W2Projection.probitTabulated());
    Ep.Options exact = ep.withProjection(W2Projection.exact());
    Ep.Options[] runs = {ep, table, exact};
    String[] names = {"EP", "QP table", "QP exact"};
    // warm-up (JIT)
    for (int w = 0; w < 2; w++) {
      for (Ep.Options o : runs) {
        Ep.infer(problem, o, null);
      }
    }
    double[][] t = new double[3][reps];
    int[] sweeps = new int[3];
    for (int r = 0; r < reps; r++) {
      for (int k = 0; k < 3; k++) {
        long t0 = System.nanoTime();
        Posterior p = Ep.infer(problem, runs[k], null);
        t[k][r] = (System.nanoTime() - t0) * 1e-9;
        sweeps[k] = p.diagnostics().iterations();
      }
    }
    double[] med = new double[3];
    System.out.printf(
        "Ionosphere n=%d, se-iso l=2.0 s2=2.25, %d interleaved repetitions, median wall time%n",
        problem.size(), reps);
    for (int k = 0; k < 3; k++) {
      double[] s = t[k].clone();
      Arrays.sort(s);
      med[k] = s[reps / 2];
      System.out.printf(
          "  %-9s %8.2f ms  (%d sweeps; min %.2f, max %.2f ms)%n",
          names[k], med[k] * 1e3, sweeps[k], s[0] * 1e3, s[reps - 1] * 1e3);
    }
    System.out.printf("  QP_table/EP = %.2f   (target <= 1.2)%n", med[1] / med[0]);
    System.out.printf("  QP_exact/EP = %.2f   (target <= 10)%n", med[2] / med[0]);
  }
}
