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
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.inference.Diagnostics;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Vb;
import org.approxgp.inference.VbOptions;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Probit;
import org.approxgp.metrics.Metrics;
import org.approxgp.model.FittedGp;
import org.approxgp.model.GpModel;
import org.approxgp.model.InferenceMethod;
import org.approxgp.papers.qp.QpTable1;

/**
 * Benchmark (not a test): where a QP Table 1 VB trial's time goes. For each data set named on the command
 * line (default pima, ionosphere, wine1) it takes the SAMPLES (seed, fold) pairs that
 * {@code bin/bench table1 SAMPLES SEED clean} samples for it (the same draws), builds the trial's problem as
 * {@code QpTable1} does (clean protocol, se-iso from ℓ = 1, s² = 1, training-fold standardisation) and runs the
 * trial's fit, {@code GpModel.fit(problem, vb, optimize)}, with an instrumented VB method that records, per
 * L-BFGS evaluation, the inner iterations, the rejected steps (Anderson proposals discarded, plain steps halved)
 * and the thread CPU time. Then TE, NTLL and the log evidence as the trial computes them, and the time spent in
 * the probit variational expectations ({@link TimedExpectations}: the likelihood is forwarded call by call, so
 * the fit is the trial's to the bit); the rest is the factorisations, diag Σ and θ-gradients (BLAS). The
 * summary extrapolates both to the paper's 1000 trials per data set, as {@code bin/bench table1} does: the VB
 * share of Table 1, and what would be left of it if the variational expectations cost nothing.
 *
 * <p>Run: {@code java -cp ... org.approxgp.bench.VbProfile [SEED] [REPEATS] [DATA,...] [SAMPLES]} (defaults 1,
 * 1, pima,ionosphere,wine1, 1); each fit runs REPEATS times and the last is counted (JIT warm-up). Every VB
 * inference uses {@link VbOptions#defaults()} ({@code -Dvbprofile.memory=M} another Anderson memory;
 * {@code -Dvbprofile.trace=I} prints evaluation I's stopping-rule trace). A JFR profile: add
 * {@code -XX:StartFlightRecording=filename=vb.jfr,settings=profile} and read it with
 * {@code jfr print --events jdk.ExecutionSample vb.jfr}.
 */
public final class VbProfile {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private VbProfile() {}

  /** One VB inference inside the fit. */
  private record Eval(
      boolean warm,
      int iterations,
      int andersonRejected,
      int halvings,
      boolean converged,
      double cpu) {}

  public static void main(String[] args) {
    long seed = args.length > 0 ? Long.parseLong(args[0]) : 1;
    int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    List<String> wanted = args.length > 2
        ? Arrays.asList(args[2].split(","))
        : List.of("pima", "ionosphere", "wine1");
    int samples = args.length > 3 ? Integer.parseInt(args[3]) : 1;
    QpTable1.Config full =
        QpTable1.Config.forMode(ProjectPaths.Mode.FULL, List.of("ep", "qp", "vb"));
    int perCell = full.seeds() * full.folds();
    if (repeats < 1 || samples < 1 || samples > perCell) {
      throw new IllegalArgumentException(
          "need REPEATS >= 1 and SAMPLES in 1.." + perCell + ", got " + repeats + ", " + samples);
    }
    Random rng = new Random(seed);
    double total = 0;
    double totalVe = 0;
    double hours = 0;
    double hoursVe = 0;
    for (String d : full.datasets()) {
      // the draws of Table1Bench's clean protocol with SAMPLES pairs per data set
      int[] pairs = Table1Bench.distinctPairs(rng, perCell, samples);
      if (!wanted.contains(d)) {
        continue;
      }
      double cpu = 0;
      double ve = 0;
      for (int pair : pairs) {
        Cost c = null;
        for (int rep = 0; rep < repeats; rep++) {
          c = run(d, pair / full.folds(), pair % full.folds(), rep == repeats - 1);
        }
        cpu += c.fitCpu();
        ve += c.expectations();
      }
      total += cpu;
      totalVe += ve;
      hours += cpu / samples * perCell / 3600;
      hoursVe += ve / samples * perCell / 3600;
    }
    System.out.printf(
        Locale.ROOT,
        "total VB cpu s: %.3f, of which variational expectations %.3f (%.1f %%; the timing's clock"
            + " reads, %.2f µs each, excluded)%n",
        total,
        totalVe,
        100 * totalVe / total,
        TimedExpectations.CLOCK_INTERVAL * 1e-3);
    System.out.printf(
        Locale.ROOT,
        "these data sets' VB trials at paper scale (%d per data set, clean protocol): %.2f CPU-h, %.2f"
            + " of them in variational expectations; if those cost nothing: %.2f CPU-h%n",
        perCell,
        hours,
        hoursVe,
        hours - hoursVe);
  }

  /** A fit's thread CPU time and the part of it spent in variational expectations. */
  private record Cost(double fitCpu, double expectations) {}

  private static Cost run(String dataset, long seed, int fold, boolean verbose) {
    Dataset data = QpTable1.dataset(dataset);
    Split split = Splits.kFold(data.size(), 10, seed).get(fold);
    Dataset train = data.rows(split.train());
    Dataset test = data.rows(split.test());
    Standardizer st = Standardizer.fit(train.features());
    Kernel k0 = SquaredExponential.iso(1.0, 1.0);
    // Probit in every method, with the time of its variational expectations added up
    TimedExpectations likelihood = new TimedExpectations(Probit.get());
    Problem problem = Problem.of(k0, st.apply(train.features()), train.target(), likelihood);
    double[][] xTest = st.apply(test.features());
    double[] yTest = test.target();
    List<Eval> evals = new ArrayList<>();
    VbOptions options = VbOptions.defaults()
        .withAndersonMemory(
            Integer.getInteger("vbprofile.memory", VbOptions.defaults().andersonMemory()));
    int traced = Integer.getInteger("vbprofile.trace", -1);
    InferenceMethod vb = InferenceMethod.of("vb", (p, w) -> {
      long c0 = CPU.getCurrentThreadCpuTime();
      Posterior post = Vb.infer(p, options, w);
      double cpu = (CPU.getCurrentThreadCpuTime() - c0) * 1e-9;
      Diagnostics dg = post.diagnostics();
      List<Double> trace = dg.trace();
      // a loop pass ends in an accepted Anderson step (1 iteration), a discarded Anderson proposal
      // and a
      // plain step (2), or a plain step alone (1); a halved plain step leaves the state, so the
      // next pass
      // records the same change again
      int halvings = 0;
      for (int i = 1; i < trace.size(); i++) {
        if (trace.get(i).equals(trace.get(i - 1))) {
          halvings++;
        }
      }
      int rejected = dg.iterations() - (trace.size() - 1);
      if (evals.size() == traced) {
        System.out.println("  trace of evaluation " + traced + ": " + trace);
      }
      evals.add(new Eval(w != null, dg.iterations(), rejected, halvings, dg.converged(), cpu));
      return post;
    });
    long c0 = CPU.getCurrentThreadCpuTime();
    FittedGp fit = GpModel.fit(problem, vb, GpModel.FitOptions.optimize(k0));
    double clock = likelihood.clockSeconds();
    double fitCpu = (CPU.getCurrentThreadCpuTime() - c0) * 1e-9 - clock;
    double[] p = new double[yTest.length];
    var pred = fit.predict(xTest);
    for (int j = 0; j < p.length; j++) {
      p[j] = Probit.get().predictivePositive(pred.latentMean()[j], pred.latentVariance()[j]);
    }
    double te = Metrics.testError(p, yTest);
    double ntll = Metrics.negativeLogLikelihood(fit.logPredictive(xTest, yTest));
    double[] theta = fit.kernel().logHyperparameters();
    int iters = 0;
    double innerCpu = 0;
    for (Eval e : evals) {
      iters += e.iterations();
      innerCpu += e.cpu();
    }
    innerCpu -= clock;
    System.out.printf(
        Locale.ROOT,
        "%s seed %d fold %d n=%d: fit cpu %.3f s (VB inferences %.3f s), %d L-BFGS "
            + "iterations, %d evaluations, %d inner iterations; log evidence %.12f, TE %.6f, NTLL %.9f, "
            + "log ℓ %.6f, log s² %.6f, converged %s; variational expectations %.3f s (%d, %.1f µs"
            + " each; the timing's clock reads, %.3f s, are excluded from both)%n",
        dataset,
        seed,
        fold,
        problem.size(),
        fitCpu,
        innerCpu,
        fit.iterations(),
        evals.size(),
        iters,
        fit.logEvidence(),
        te,
        ntll,
        theta[0],
        theta[1],
        fit.converged(),
        likelihood.seconds(),
        likelihood.calls(),
        1e6 * likelihood.seconds() / Math.max(1, likelihood.calls()),
        clock);
    if (verbose) {
      for (int i = 0; i < evals.size(); i++) {
        Eval e = evals.get(i);
        System.out.printf(
            Locale.ROOT,
            "  eval %3d %s: %4d iterations (%d Anderson discarded, %d halvings), "
                + "converged %s, cpu %.4f s (%.2f ms/iteration)%n",
            i,
            e.warm() ? "warm" : "cold",
            e.iterations(),
            e.andersonRejected(),
            e.halvings(),
            e.converged(),
            e.cpu(),
            1e3 * e.cpu() / Math.max(1, e.iterations()));
      }
    }
    return new Cost(fitCpu, likelihood.seconds());
  }
}
