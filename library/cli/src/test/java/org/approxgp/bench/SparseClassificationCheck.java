package org.approxgp.bench;

import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.baseline.LogisticRegression;
import org.approxgp.data.RegressionData;
import org.approxgp.data.RegressionDatasets;
import org.approxgp.data.Standardizer;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.inference.SiteUpdate;
import org.approxgp.inference.SparsePosterior;
import org.approxgp.inference.SparseProblem;
import org.approxgp.inference.SparseSiteLoop;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Probit;
import org.approxgp.model.Registry;
import org.approxgp.model.Settings;
import org.approxgp.model.SparseGpModel;
import org.approxgp.optimize.Lbfgs;
import org.approxgp.projection.W2Projection;
import org.approxgp.sparse.KMeans;

/**
 * Benchmark (not a unit test), the small-n check of issue 47: on N flights rows (default 3,000; the task of
 * {@link SparseClassificationBench}: label arr_delay &gt; 0, inputs standardised on the training rows, the same
 * {@value SparseClassificationBench#TEST_ROWS} held-out test rows) sparse EP and sparse QP at M = 100 k-means inducing
 * inputs beside exact EP and logistic regression (λ = 1): test error and NLL per row. All GP methods run at one set of
 * SE-ARD hyperparameters, learned by L-BFGS on the sparse EP energy on the training rows (capped at
 * {@value SparseClassificationBench#LBFGS_ITERATIONS} iterations); the test rows are used for nothing but the scores.
 *
 * <p>Run: {@code bin/bench sparse classification check [N] [M]}.
 */
public final class SparseClassificationCheck {
  private SparseClassificationCheck() {}

  public static void main(String[] args) throws Exception {
    int nWanted = args.length > 0 ? (int) Double.parseDouble(args[0]) : 3_000;
    int mInd = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    System.out.println("load average at start: "
        + java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim());
    RegressionData all = RegressionDatasets.flights().data();
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {47, 2026});
    int[] perm = PermutationSampler.natural(all.n());
    PermutationSampler.shuffle(rng, perm);
    int t = SparseClassificationBench.TEST_ROWS;
    int n = nWanted;
    double[][] xTest = new double[t][];
    double[] yTest = new double[t];
    for (int i = 0; i < t; i++) {
      xTest[i] = all.row(perm[i]);
      yTest[i] = all.y()[perm[i]] > SparseClassificationBench.DELAY_MINUTES ? 1 : -1;
    }
    double[][] x = new double[n][];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      int r = perm[t + i];
      x[i] = all.row(r);
      y[i] = all.y()[r] > SparseClassificationBench.DELAY_MINUTES ? 1 : -1;
    }
    Standardizer st = Standardizer.fit(x);
    x = st.apply(x);
    xTest = st.apply(xTest);
    KMeans km = KMeans.fit(RegressionData.of(x, new double[n]), mInd, 1, 20);
    double[][] z = new double[mInd][];
    for (int c = 0; c < mInd; c++) {
      z[c] = km.centroid(c);
    }
    double[] ell = new double[x[0].length];
    Arrays.fill(ell, 2.0);
    Kernel k0 = SquaredExponential.ard(ell, 1.0);
    Registry.SparseMethod ep = Registry.sparseInference("ep", Settings.none());
    Registry.SparseMethod qp = Registry.sparseInference("qp", Settings.none());
    @SuppressWarnings("unchecked")
    SiteUpdate<Object> epRule = (SiteUpdate<Object>) ep.rule();
    @SuppressWarnings("unchecked")
    SiteUpdate<Object> qpRule = (SiteUpdate<Object>) qp.rule();
    long t0 = System.nanoTime();
    SparseGpModel.Fit hyp = SparseGpModel.fit(
        new SparseProblem(new Problem(k0, x, y, Probit.get(), 0.0), z),
        epRule,
        ep.loop(),
        new SparseGpModel.FitOptions(
            false, new Lbfgs.Settings(SparseClassificationBench.LBFGS_ITERATIONS, 1e-7, 1e-4, 10)));
    Kernel kernel = hyp.posterior().problem().problem().kernel();
    System.out.printf(
        Locale.ROOT,
        "%,d training rows, %,d test rows (%.1f%% delayed); hyperparameters by the sparse EP energy (M = %d): %d"
            + " iterations, %s, %.1f s%n",
        n,
        t,
        100.0 * Arrays.stream(yTest).filter(v -> v > 0).count() / t,
        mInd,
        hyp.iterations(),
        hyp.status(),
        (System.nanoTime() - t0) * 1e-9);
    Problem p = new Problem(kernel, x, y, Probit.get(), 0.0);
    SparseProblem sp = new SparseProblem(p, z);
    long t1 = System.nanoTime();
    SparsePosterior sEp = SparseSiteLoop.run(sp, epRule, ep.loop().withGradient(false), null);
    report(
        "sparse EP (M = " + mInd + ")",
        sEp::predict,
        xTest,
        yTest,
        t1,
        sEp.diagnostics().toString());
    long t2 = System.nanoTime();
    SparsePosterior sQp = SparseSiteLoop.run(sp, qpRule, qp.loop(), sEp.sites());
    report(
        "sparse QP (M = " + mInd + ", from sparse EP's sites)",
        sQp::predict,
        xTest,
        yTest,
        t2,
        sQp.diagnostics().toString());
    System.out.println(
        "  the shipped QP table served " + tableCovered(sQp, y) + " of " + n
            + " final cavities of sparse QP (the rest would take the exact W2 projection, ~1.5 ms a site)");
    long t3 = System.nanoTime();
    Posterior exact =
        Registry.inference("ep", Settings.none().with("gradient", "none")).infer(p, null);
    report("exact EP", exact::predict, xTest, yTest, t3, exact.diagnostics().toString());
    LogisticRegression lr = LogisticRegression.fit(x, y, 1.0);
    ClassifierScore floor = ClassifierScore.of(lr, xTest, yTest);
    System.out.printf(
        Locale.ROOT,
        "%-45s test error %.4f, NLL %.4f per row%n",
        "logistic regression (lambda = 1)",
        floor.testError(),
        floor.nll());
  }

  /**
   * How many of the final f-cavities of a sparse run the shipped probit W2 table covers: the g-cavity τ₋ = 1/V_g − τ̃,
   * ν₋ = m_g/V_g − ν̃ from q(gₙ) (V_g = Var fₙ − dₙ) and the site, inflated by dₙ (mean ν₋/τ₋, variance 1/τ₋ + dₙ).
   */
  private static int tableCovered(SparsePosterior post, double[] y) {
    W2Projection table = W2Projection.shipped();
    double[] mean = post.mean();
    double[] var = post.variance();
    double[] d = post.conditionalVariance();
    double[] tau = post.sites().tau();
    double[] nu = post.sites().nu();
    int covered = 0;
    for (int i = 0; i < mean.length; i++) {
      double vg = var[i] - d[i];
      double tc = 1 / vg - tau[i];
      double nc = mean[i] / vg - nu[i];
      if (tc > 0 && table.covers(Probit.get(), y[i], nc / tc, 1 / tc + d[i])) {
        covered++;
      }
    }
    return covered;
  }

  /** Scores the predictions of {@code predict} on the test rows, 2,000 at a time (exact EP's n × test work space). */
  private static void report(
      String name,
      java.util.function.Function<double[][], Prediction> predict,
      double[][] xTest,
      double[] yTest,
      long t0,
      String diag) {
    // predictions 2,000 rows at a time, scored as one
    int t = yTest.length;
    double[] mean = new double[t];
    double[] variance = new double[t];
    for (int from = 0; from < t; from += 2000) {
      Prediction pr = predict.apply(Arrays.copyOfRange(xTest, from, Math.min(t, from + 2000)));
      System.arraycopy(pr.latentMean(), 0, mean, from, pr.latentMean().length);
      System.arraycopy(pr.latentVariance(), 0, variance, from, pr.latentVariance().length);
    }
    ClassifierScore score = ClassifierScore.of(new Prediction(mean, variance), yTest);
    System.out.printf(
        Locale.ROOT,
        "%-45s test error %.4f, NLL %.4f per row (%.1f s; %s)%n",
        name,
        score.testError(),
        score.nll(),
        (System.nanoTime() - t0) * 1e-9,
        diag);
  }
}
