package org.approxgp.papers.qp;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import org.approxgp.inference.Ep;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.likelihood.Probit;
import org.approxgp.linalg.Linalg;
import org.approxgp.metrics.Metrics;
import org.approxgp.model.FittedGp;
import org.approxgp.model.GpModel;
import org.approxgp.model.Methods;
import org.approxgp.model.Registry;

/**
 * Benchmark (not a test): QP's L-BFGS fit of one Table 1 fold from EP's optimum, with the central-difference
 * gradient and with the implicit-differentiation gradient ({@code inference.QpGradient}), side by side in one
 * run: thread CPU and wall seconds, evidence, hyperparameters, test error and NTLL as {@link QpTable1}
 * computes them.
 *
 * <p>Run: {@code java -cp library/papers/target/classes:library/papers/target/test-classes:CP
 * org.approxgp.papers.qp.QpGradientFoldBench [DATASET] [KERNEL] [SEED] [FOLD] [QP_TOLERANCE]
 * [both|implicit|numerical]} (defaults ionosphere se-ard 0 0 1e-6 both).
 */
public final class QpGradientFoldBench {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private QpGradientFoldBench() {}

  public static void main(String[] args) {
    String dataset = args.length > 0 ? args[0] : "ionosphere";
    String kernel = args.length > 1 ? args[1] : "se-ard";
    long seed = args.length > 2 ? Long.parseLong(args[2]) : 0;
    int fold = args.length > 3 ? Integer.parseInt(args[3]) : 0;
    double tol = args.length > 4
        ? Double.parseDouble(args[4])
        : Ep.Options.defaults().loop().tolerance();
    String which = args.length > 5 ? args[5] : "both";
    boolean both = which.equals("both");
    QpTable1.FoldProblem fp = QpTable1.foldProblem(dataset, kernel, seed, fold);
    Problem p = fp.problem();
    System.out.printf(
        Locale.ROOT,
        "%s %s seed %d fold %d: n = %d, dim θ = %d, backend %s, QP tolerance %g%n",
        dataset,
        kernel,
        seed,
        fold,
        p.size(),
        p.kernel().size(),
        Linalg.backendName(),
        tol);
    long c0 = CPU.getCurrentThreadCpuTime();
    FittedGp ep = GpModel.fit(p, Registry.inference("ep"), GpModel.FitOptions.optimize(p.kernel()));
    System.out.printf(
        Locale.ROOT,
        "EP fit: %.2f s cpu, log evidence %.10f, %d iterations%n",
        (CPU.getCurrentThreadCpuTime() - c0) * 1e-9,
        ep.logEvidence(),
        ep.iterations());
    FittedGp[] fits = new FittedGp[2];
    double[] cpu = new double[2];
    double[] wall = new double[2];
    Methods.QpGradientKind[] kinds = {
      Methods.QpGradientKind.NUMERICAL, Methods.QpGradientKind.IMPLICIT
    };
    for (int r = which.equals("implicit") ? 1 : 0; r < (which.equals("numerical") ? 1 : 2); r++) {
      long w0 = System.nanoTime();
      c0 = CPU.getCurrentThreadCpuTime();
      fits[r] = GpModel.fit(
          p.withKernel(ep.kernel()),
          Methods.qp(
              org.approxgp.inference.Qp.options().withLoop(l -> l.withTolerance(tol)), kinds[r]),
          GpModel.FitOptions.optimize(p.kernel()));
      cpu[r] = (CPU.getCurrentThreadCpuTime() - c0) * 1e-9;
      wall[r] = (System.nanoTime() - w0) * 1e-9;
      FittedGp f = fits[r];
      Prediction pred = f.predict(fp.xTest());
      double[] prob = new double[fp.yTest().length];
      for (int j = 0; j < prob.length; j++) {
        prob[j] = Probit.get().predictivePositive(pred.latentMean()[j], pred.latentVariance()[j]);
      }
      double te = Metrics.testError(prob, fp.yTest());
      double ntll = Metrics.negativeLogLikelihood(f.logPredictive(fp.xTest(), fp.yTest()));
      System.out.printf(
          Locale.ROOT,
          "QP %-9s: %7.2f s cpu %7.2f s wall, %3d iterations, %4d evaluations, "
              + "log evidence %.10f, TE %.6f, NTLL %.8f, converged %s (%s)%n",
          kinds[r],
          cpu[r],
          wall[r],
          f.iterations(),
          f.evaluations(),
          f.logEvidence(),
          te,
          ntll,
          f.converged(),
          f.optimizerStatus());
    }
    if (!both) {
      return;
    }
    double[] a = fits[0].kernel().logHyperparameters();
    double[] b = fits[1].kernel().logHyperparameters();
    double d = 0;
    for (int j = 0; j < a.length; j++) {
      d = Math.max(d, Math.abs(a[j] - b[j]));
    }
    System.out.printf(
        Locale.ROOT,
        "evidence difference (implicit − numerical) %.3e; max |Δ log θ| %.3e%n",
        fits[1].logEvidence() - fits[0].logEvidence(),
        d);
    System.out.printf(
        Locale.ROOT,
        "time ratio numerical/implicit: %.1f× cpu, %.1f× wall%n",
        cpu[0] / cpu[1],
        wall[0] / wall[1]);
  }
}
