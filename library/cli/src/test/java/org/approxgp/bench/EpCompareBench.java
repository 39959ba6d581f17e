package org.approxgp.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Locale;
import org.approxgp.anchors.GpmlIonosphere;
import org.approxgp.inference.Ep;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Qp;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Probit;

/**
 * Benchmark (not a test): one inference with its gradient on {@code bin/bench classification}'s problem (GPML's
 * Ionosphere split, n = 316, se-ard at ℓ = 5.74, s² = 4, cold start), this build against a baseline build's
 * classes alternately in one JVM: EP and QP (the sequential schedule), the thread CPU seconds of each run, and
 * at the end each build's best and median and the ratio of the medians, with the log evidences' raw bits of
 * both builds (which must agree).
 *
 * <p>Run: {@code java -cp CLASSPATH org.approxgp.bench.EpCompareBench BASELINE_CLASSES [REPS] [METHOD]} (defaults
 * 40 and ep; METHOD ep or qp), BASELINE_CLASSES the {@code target/classes} directory of the baseline's library.
 */
public final class EpCompareBench {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private EpCompareBench() {}

  public static void main(String[] args) throws Exception {
    Method old = BaselineClasses.method(args[0], EpCompareBench.class, "once", String.class);
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    String method = args.length > 2 ? args[2] : "ep";
    Method mine = EpCompareBench.class.getMethod("once", String.class);
    double[] o = new double[reps];
    double[] n = new double[reps];
    long oldBits = 0;
    long newBits = 0;
    for (int r = -10; r < reps; r++) { // ten untimed pairs first (JIT warm-up)
      double[] a = (double[]) (r % 2 == 0 ? old : mine).invoke(null, method);
      double[] b = (double[]) (r % 2 == 0 ? mine : old).invoke(null, method);
      double[] ro = r % 2 == 0 ? a : b;
      double[] rn = r % 2 == 0 ? b : a;
      if (r >= 0) {
        o[r] = ro[0];
        n[r] = rn[0];
      }
      oldBits = Double.doubleToRawLongBits(ro[1]);
      newBits = Double.doubleToRawLongBits(rn[1]);
    }
    Arrays.sort(o);
    Arrays.sort(n);
    System.out.printf(
        Locale.ROOT,
        "%s inference+gradient, Ionosphere se-ard cold start, %d runs each: old best %.2f ms median %.2f ms,"
            + " new best %.2f ms median %.2f ms, old/new median %.3f best %.3f; log evidence bits %016x %016x %s%n",
        method,
        reps,
        o[0] * 1e3,
        o[reps / 2] * 1e3,
        n[0] * 1e3,
        n[reps / 2] * 1e3,
        o[reps / 2] / n[reps / 2],
        o[0] / n[0],
        oldBits,
        newBits,
        oldBits == newBits ? "(equal)" : "(DIFFER)");
  }

  /** One inference: (thread CPU seconds, log evidence). Public for the baseline's class loader. */
  public static double[] once(String method) {
    GpmlIonosphere.Split train = GpmlIonosphere.train();
    double[] ls = new double[train.x()[0].length];
    Arrays.fill(ls, 5.744562646538029);
    Problem p = Problem.of(SquaredExponential.ard(ls, 4.0), train.x(), train.y(), Probit.get());
    long c0 = CPU.getCurrentThreadCpuTime();
    Posterior post = method.equals("qp")
        ? Qp.inferWithImplicitGradient(p, Qp.options(), null)
        : Ep.infer(p, Ep.Options.defaults(), null);
    return new double[] {(CPU.getCurrentThreadCpuTime() - c0) * 1e-9, post.logEvidence()};
  }
}
