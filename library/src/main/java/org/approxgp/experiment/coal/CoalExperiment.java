package org.approxgp.experiment.coal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.approxgp.data.Coal;
import org.approxgp.data.Datasets;
import org.approxgp.data.Split;
import org.approxgp.data.Splits;
import org.approxgp.data.TargetKind;
import org.approxgp.inference.Ep;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Sites;
import org.approxgp.inference.Vb;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.NegativeBinomialPredictive;
import org.approxgp.likelihood.PoissonSquareLink;
import org.approxgp.model.FittedGp;
import org.approxgp.model.GpModel;
import org.approxgp.model.InferenceMethod;
import org.approxgp.projection.W2Projection;

/**
 * QP paper (Zhang et al. 2020) §6.2 and Table 1, last row: Poisson regression with the square link on
 * the coal-mining disasters.
 *
 * <p>Protocol. For seed s each of the 191 event dates goes to the test sequence with probability ½
 * ({@link Splits#bernoulli}, commons-rng seeded by s — not the authors' NumPy stream), and both
 * sequences are binned into yearly counts over the same 112 years 1851–1962. Input: year − 1851 (a
 * shift only, so length-scales are in years; the SE kernel is shift-invariant, so this changes nothing
 * but the printout). Model: f ~ GP(1, k_SE-iso) — the constant prior mean 1 of the authors' code —
 * and y | f ~ Poisson(f²). Hyperparameters (length-scale, signal variance) are learnt per method by
 * L-BFGS on that method's log evidence (ELBO for VB) from ℓ₀ = {@value #INITIAL_LENGTHSCALE} years,
 * σ_f² = {@value #INITIAL_SIGNAL_VARIANCE}, the same start for every method. Prediction at the 112
 * years: f* ~ N(μ*, σ*²) → NB(k*, c*÷(1+c*)) (appendix H); TE = mean |y* − mode|, NTLL = −mean log NB
 * pmf (the paper's metrics); we also report the NTLL under the exact predictive ∫ N(f*) p(y* | f*) df*.
 *
 * <p>Trials are independent and deterministic, so running them on any number of threads gives the
 * same rows in the same order.
 */
public final class CoalExperiment {
  public static final double INITIAL_LENGTHSCALE = 10.0;
  public static final double INITIAL_SIGNAL_VARIANCE = 0.1;
  public static final double PRIOR_MEAN = 1.0;
  static final int FIRST_YEAR = 1851;
  static final int LAST_YEAR = 1962;

  /** The paper's Table 1 last row: method → {TE, TE sd, NTLL, NTLL sd} (TE ×1e-2, NTLL ×1e-3 undone). */
  public static final Map<String, double[]> PAPER = Map.of(
      "ep", new double[] {1.186, 0.270, 1.6068, 0.1163},
      "qp", new double[] {1.186, 0.270, 1.6065, 0.1163},
      "vb", new double[] {1.703, 0.159, 2.0073, 0.1198});

  private CoalExperiment() {}

  /**
   * One trial's result.
   *
   * @param seed split seed
   * @param method "ep", "qp", "vb"
   * @param te mean |y* − mode of NB| over the test years
   * @param ntll −mean log NB(y*) over the test years (paper's NTLL)
   * @param ntllExact −mean log ∫ N(f* | μ*, σ*²) p(y* | f*) df*
   * @param lengthscale learnt length-scale (years)
   * @param signalVariance learnt signal variance
   * @param negLogEvidence −log Z (EP/QP) or −ELBO (VB) at the learnt hyperparameters
   * @param converged optimiser and final inference converged
   * @param clipped EP/QP site updates clipped to τ̃ = 0 over the whole fit (all evaluations)
   * @param siteUpdates EP/QP site updates over the whole fit
   * @param trainEvents events in the training sequence
   * @param testEvents events in the test sequence
   * @param seconds wall time of the fit
   * @param error "" or why the trial failed (then the metrics are NaN)
   * @param status the optimiser's stop reason and the final inference's diagnostics
   */
  public record Row(long seed, String method, double te, double ntll, double ntllExact, double lengthscale,
      double signalVariance, double negLogEvidence, boolean converged, long clipped, long siteUpdates,
      int trainEvents, int testEvents, double seconds, String error, String status) {}

  /** The train/test yearly counts of one seed. */
  public record CoalSplit(double[][] x, double[] trainCounts, double[] testCounts, int trainEvents, int testEvents) {}

  /** Splits the events for a seed and bins both sequences per year. */
  public static CoalSplit split(long seed) {
    double[] dates = Datasets.load("coal", "date", TargetKind.REAL).target();
    Split s = Splits.bernoulli(dates.length, 0.5, seed);
    double[] tr = new double[s.train().length];
    double[] te = new double[s.test().length];
    for (int i = 0; i < tr.length; i++) {
      tr[i] = dates[s.train()[i]];
    }
    for (int i = 0; i < te.length; i++) {
      te[i] = dates[s.test()[i]];
    }
    int[] ctr = Coal.yearlyCounts(tr, FIRST_YEAR, LAST_YEAR);
    int[] cte = Coal.yearlyCounts(te, FIRST_YEAR, LAST_YEAR);
    int n = ctr.length;
    double[][] x = new double[n][];
    double[] ytr = new double[n];
    double[] yte = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = new double[] {i}; // year − 1851
      ytr[i] = ctr[i];
      yte[i] = cte[i];
    }
    return new CoalSplit(x, ytr, yte, tr.length, te.length);
  }

  /** The methods of Table 1: "ep", "qp", "vb". */
  public static final List<String> METHODS = List.of("ep", "qp", "vb");

  /**
   * Starts a cold inference from the likelihood's own Gaussian approximation at its positive mode
   * instead of from the prior: for y = 0, p(0 | f) = e^{−f²} is Gaussian (τ̃ = 2, ν̃ = 0); for y ≥ 1 the
   * mode of log p is f̂ = √y with −∂² log p = 2y/f̂² + 2 = 4 (τ̃ = 4, ν̃ = 4√y). Warm starts pass through.
   *
   * <p>Why: {@link Vb} requires ∂E/∂v ≤ 0 at every site (its site precision is −2∂E/∂v), but at the
   * prior N(1, σ_f²) ∂E/∂v = y(1 − a S₁)/v − 1 is positive for counts y ≥ 2 or so (log p is not
   * concave in f across 0), so VB from the prior throws before its first step. From these sites the
   * marginal variances are ≤ ¼ and ∂E/∂v &lt; 0 everywhere on the coal data.
   */
  static InferenceMethod likelihoodModeStart(InferenceMethod inner) {
    return new InferenceMethod() {
      @Override
      public String name() {
        return inner.name();
      }

      @Override
      public Posterior infer(Problem problem, Sites warmStart) {
        if (warmStart != null) {
          return inner.infer(problem, warmStart);
        }
        int n = problem.size();
        double[] tau = new double[n];
        double[] nu = new double[n];
        for (int i = 0; i < n; i++) {
          double y = problem.y()[i];
          tau[i] = y == 0 ? 2 : 4;
          nu[i] = y == 0 ? 0 : 4 * Math.sqrt(y);
        }
        return inner.infer(problem, Sites.of(tau, nu));
      }
    };
  }

  /** Counts clipped and total site updates over every inference run of a fit. */
  private static final class Counting implements InferenceMethod {
    final InferenceMethod inner;
    long clipped;
    long updates;

    Counting(InferenceMethod inner) {
      this.inner = inner;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public Posterior infer(Problem problem, Sites warmStart) {
      Posterior p = inner.infer(problem, warmStart);
      clipped += p.diagnostics().clippedSites();
      updates += (long) p.diagnostics().iterations() * problem.size();
      return p;
    }
  }

  /** Everything one seed produces: a row per method and the QP-vs-EP variance check. */
  public record SeedResult(List<Row> rows, int qpVarianceViolations, int varianceComparisons) {}

  /**
   * Fits the requested methods on one seed. EP and VB start from (ℓ₀, σ_f²₀); QP, as in the authors'
   * code, starts from EP's learnt hyperparameters and EP's sites (so "qp" implies an EP fit).
   */
  public static SeedResult trial(long seed, List<String> methods) {
    CoalSplit d = split(seed);
    SquaredExponential k0 = SquaredExponential.iso(INITIAL_LENGTHSCALE, INITIAL_SIGNAL_VARIANCE);
    Problem problem = new Problem(k0, d.x(), d.trainCounts(), PoissonSquareLink.get(), PRIOR_MEAN);
    List<Row> rows = new ArrayList<>();
    FittedGp ep = null;
    Prediction epPred = null;
    Prediction qpPred = null;
    double[] epSiteVar = null;
    double[] qpSiteVar = null;
    if (methods.contains("ep") || methods.contains("qp")) {
      Object[] r = fitAndScore(seed, "ep", InferenceMethod.ep(Ep.Options.defaults()), problem, d);
      ep = (FittedGp) r[1];
      if (methods.contains("ep")) {
        rows.add((Row) r[0]);
      }
      epPred = ep == null ? null : ep.predict(d.x());
      epSiteVar = ep == null ? null : ep.posterior().variance();
    }
    if (methods.contains("qp") && ep != null) {
      Sites epSites = ep.posterior().sites();
      // QP's objective (eq. 2 at QP's sites) by central differences: the EP-form gradient is not its gradient
      InferenceMethod qp = InferenceMethod.withNumericalGradient(
          InferenceMethod.ep(Ep.Options.defaults().withProjection(W2Projection.exact())), 1e-4);
      InferenceMethod fromEp = new InferenceMethod() {
        @Override
        public String name() {
          return "qp";
        }

        @Override
        public Posterior infer(Problem p, Sites warm) {
          return qp.infer(p, warm == null ? epSites : warm);
        }
      };
      Object[] r = fitAndScore(seed, "qp", fromEp, problem.withKernel(ep.kernel()), d);
      rows.add((Row) r[0]);
      FittedGp q = (FittedGp) r[1];
      qpPred = q == null ? null : q.predict(d.x());
      qpSiteVar = q == null ? null : q.posterior().variance();
    }
    if (methods.contains("vb")) {
      rows.add((Row) fitAndScore(seed, "vb", likelihoodModeStart(InferenceMethod.vb(Vb.Options.defaults())), problem, d)[0]);
    }
    int violations = 0;
    int comparisons = 0;
    if (epPred != null && qpPred != null) {
      for (int j = 0; j < epPred.size(); j++) {
        comparisons++;
        if (qpPred.latentVariance()[j] > epPred.latentVariance()[j] * (1 + 1e-9)) {
          violations++;
        }
      }
      for (int i = 0; i < epSiteVar.length; i++) {
        comparisons++;
        if (qpSiteVar[i] > epSiteVar[i] * (1 + 1e-9)) {
          violations++;
        }
      }
    }
    return new SeedResult(rows, violations, comparisons);
  }

  /** Fits one method and scores it; returns {Row, FittedGp or null}. */
  private static Object[] fitAndScore(long seed, String methodName, InferenceMethod method, Problem problem, CoalSplit d) {
    long t0 = System.nanoTime();
    Counting counting = new Counting(method);
    try {
      FittedGp fit = GpModel.fit(problem, counting, GpModel.FitOptions.optimize(problem.kernel()));
      Prediction p = fit.predict(d.x());
      int m = d.testCounts().length;
      double te = 0;
      double ntll = 0;
      double ntllExact = 0;
      for (int j = 0; j < m; j++) {
        NegativeBinomialPredictive nb = NegativeBinomialPredictive.of(p.latentMean()[j], p.latentVariance()[j]);
        double y = d.testCounts()[j];
        te += Math.abs(y - nb.mode());
        ntll -= nb.logPmf(y);
        ntllExact -= PoissonSquareLink.get().logPredictive(y, p.latentMean()[j], Math.max(p.latentVariance()[j], 1e-300));
      }
      SquaredExponential k = (SquaredExponential) fit.kernel();
      Row row = new Row(seed, methodName, te / m, ntll / m, ntllExact / m, k.lengthscales()[0], k.signalVariance(),
          -fit.logEvidence(), fit.converged(), counting.clipped, counting.updates, d.trainEvents(), d.testEvents(),
          (System.nanoTime() - t0) * 1e-9, "", fit.optimizerStatus() + "; " + fit.posterior().diagnostics());
      return new Object[] {row, fit};
    } catch (RuntimeException e) {
      Row row = new Row(seed, methodName, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, false,
          counting.clipped, counting.updates, d.trainEvents(), d.testEvents(), (System.nanoTime() - t0) * 1e-9,
          e.getClass().getSimpleName() + ": " + e.getMessage(), "");
      return new Object[] {row, null};
    }
  }

  /**
   * Runs every seed on {@code threads} threads; results come back ordered by seed (rows within a seed
   * in the order ep, qp, vb), identical whatever the thread count.
   */
  public static List<SeedResult> run(long[] seeds, List<String> methods, int threads) {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<SeedResult>> fs = new ArrayList<>();
      for (long s : seeds) {
        fs.add(pool.submit(() -> trial(s, methods)));
      }
      List<SeedResult> out = new ArrayList<>(fs.size());
      for (Future<SeedResult> f : fs) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /** All rows of the results, in order. */
  public static List<Row> rows(List<SeedResult> results) {
    List<Row> rows = new ArrayList<>();
    for (SeedResult r : results) {
      rows.addAll(r.rows());
    }
    return rows;
  }

  /** Mean and sample standard deviation of a column over the rows of one method (failed rows skipped). */
  static double[] meanSd(List<Row> rows, String method, java.util.function.ToDoubleFunction<Row> col) {
    double s = 0;
    double s2 = 0;
    int n = 0;
    for (Row r : rows) {
      if (r.method().equals(method) && r.error().isEmpty()) {
        double v = col.applyAsDouble(r);
        s += v;
        s2 += v * v;
        n++;
      }
    }
    double mean = s / n;
    return new double[] {mean, n > 1 ? Math.sqrt(Math.max(0, (s2 - n * mean * mean) / (n - 1))) : Double.NaN, n};
  }

  /** The summary table (ours beside the paper's). */
  public static String table(List<Row> rows, Iterable<String> methods) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "%-4s %6s %18s %18s %18s %18s %12s %10s %10s %8s%n", "", "trials", "TE (ours)",
        "TE (paper)", "NTLL (ours)", "NTLL (paper)", "NTLL exact", "ℓ median", "σf² med", "clip %"));
    for (String m : methods) {
      double[] te = meanSd(rows, m, Row::te);
      double[] nt = meanSd(rows, m, Row::ntll);
      double[] ne = meanSd(rows, m, Row::ntllExact);
      double[] p = PAPER.getOrDefault(m, new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN});
      long clipped = 0;
      long updates = 0;
      List<Double> ls = new ArrayList<>();
      List<Double> sf = new ArrayList<>();
      for (Row r : rows) {
        if (r.method().equals(m)) {
          clipped += r.clipped();
          updates += r.siteUpdates();
          if (r.error().isEmpty()) {
            ls.add(r.lengthscale());
            sf.add(r.signalVariance());
          }
        }
      }
      b.append(String.format(Locale.ROOT, "%-4s %6d %9.3f ± %6.3f %9.3f ± %6.3f %9.4f ± %6.4f %9.4f ± %6.4f %12.4f %10.2f %10.3f %8.3f%n",
          m, (int) te[2], te[0], te[1], p[0], p[1], nt[0], nt[1], p[2], p[3], ne[0], median(ls), median(sf),
          updates == 0 ? 0.0 : 100.0 * clipped / updates));
    }
    return b.toString();
  }

  private static double median(List<Double> v) {
    if (v.isEmpty()) {
      return Double.NaN;
    }
    List<Double> s = new ArrayList<>(v);
    s.sort(null);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : 0.5 * (s.get(n / 2 - 1) + s.get(n / 2));
  }

  /** Usage: {@code CoalExperiment [seeds=200] [threads=available processors] [methods=ep,qp,vb]}. */
  public static void main(String[] args) {
    int nSeeds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
    long[] seeds = new long[nSeeds];
    for (int i = 0; i < nSeeds; i++) {
      seeds[i] = i;
    }
    List<String> methods = args.length > 2 ? List.of(args[2].split(",")) : METHODS;
    long t0 = System.nanoTime();
    List<SeedResult> results = run(seeds, methods, threads);
    List<Row> rows = rows(results);
    double secs = (System.nanoTime() - t0) * 1e-9;
    System.out.println("Coal mining, Poisson square link, " + nSeeds + " seeds, " + threads + " threads, "
        + String.format(Locale.ROOT, "%.1f s", secs));
    System.out.print(table(rows, methods));
    int viol = results.stream().mapToInt(SeedResult::qpVarianceViolations).sum();
    int comp = results.stream().mapToInt(SeedResult::varianceComparisons).sum();
    System.out.println("σ²_QP > σ²_EP (training sites and test years, each method at its own θ): " + viol + " of " + comp);
    for (Row r : rows) {
      if (r.seed() == 0) {
        System.out.printf(Locale.ROOT, "seed 0 %s: -log Z = %.4f, lengthscale %.3f years, signal variance %.4f, converged %s%s%n",
            r.method(), r.negLogEvidence(), r.lengthscale(), r.signalVariance(), r.converged(),
            r.error().isEmpty() ? "" : " ERROR " + r.error());
      }
    }
    long failed = rows.stream().filter(r -> !r.error().isEmpty()).count();
    long notConv = rows.stream().filter(r -> r.error().isEmpty() && !r.converged()).count();
    System.out.println("failed trials: " + failed + ", not converged: " + notConv);
    for (String m : methods) {
      long finalClips = rows.stream().filter(r -> r.method().equals(m) && r.status().contains("clipped")).count();
      long anyClips = rows.stream().filter(r -> r.method().equals(m) && r.clipped() > 0).count();
      System.out.println("  " + m + ": trials with clipped site updates anywhere in the fit " + anyClips
          + ", in the final inference " + finalClips);
    }
    for (String m : methods) {
      java.util.Map<String, Long> why = new java.util.TreeMap<>();
      rows.stream().filter(r -> r.method().equals(m) && r.error().isEmpty() && !r.converged())
          .forEach(r -> why.merge(r.status().replaceAll("\\b[0-9][0-9.eE+-]*", "#"), 1L, Long::sum));
      why.forEach((k, c) -> System.out.println("  not converged " + m + " x" + c + ": " + k));
    }
    rows.stream().filter(r -> !r.error().isEmpty()).limit(5).forEach(r -> System.out.println("  " + r.seed() + " " + r.method() + ": " + r.error()));
  }
}
