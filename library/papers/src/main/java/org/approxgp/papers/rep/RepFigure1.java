package org.approxgp.papers.rep;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Sites;
import org.approxgp.kernel.Linear;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * REP paper Figure 1 (§6.1): linear classification of five 2-D points, one mislabelled, with the noisy-step
 * likelihood (ε = 0.2) and the linear kernel k(x, x') = xᵀx' (so f(x) = wᵀx with w ~ N(0, I₂)); the posterior
 * mean and covariance of w by EP, Power EP (u = 0.8) and Relaxed EP (c = 20) against the exact posterior
 * (Fig. 1a), and their squared distances to it as u and c vary (Fig. 1b–e). Power EP is the paper's, Qi &amp; Guo's
 * appendix C variant ("PEP (App. C)", {@link RepMethods#POWER_EP_APPENDIX_C}), which decides the claims
 * ({@link #agreement}); Minka's ("PEP (Minka)") runs beside it, labelled, and is not counted. Tables name methods by
 * {@link RepMethods#label}.
 *
 * <p><b>The five points</b> ({@link #X}, {@link #Y}; the paper does not print them, these are chosen to look
 * like its figure): class −1 ("red x") at (−2, 1) and (−1.5, −0.5); class +1 ("blue o") at (1, 0.5) and
 * (1.5, −1); the mislabelled red point on the right at (3, 1.5) with y = −1.
 *
 * <p><b>The posterior of w from the sites.</b> With f = Xw and w ~ N(0, s I) the GP prior is N(f | 0, sXXᵀ), the
 * linear kernel's. Gaussian sites t̃_i(f_i) ∝ exp(−τ̃_i f_i²/2 + ν̃_i f_i) are Gaussian pseudo-observations of
 * x_iᵀw, so, exactly as for Bayesian linear regression (Rasmussen &amp; Williams 2006, §2.1.1, eq. 2.8),
 * q(w) = N(μ_w, Σ_w) with Σ_w = (I/s + Xᵀ S̃ X)⁻¹ and μ_w = Σ_w Xᵀ ν̃ (S̃ = diag τ̃); q(f) is its image under
 * w ↦ Xw. With negative site precisions (policy "keep") Σ_w⁻¹ may be indefinite: that is reported as a failure.
 *
 * <p><b>The exact posterior</b> (beyond the paper, which used 10⁸ importance samples): the likelihood
 * Π_i (ε + (1 − 2ε) H(y_i x_iᵀw)) depends on w only through its direction θ. In polar coordinates
 * w = √s r (cos θ, sin θ) the radial integrals are closed-form (∫ r^{k+1} e^{−r²/2} dr = 1, √(π/2), 2 for
 * k = 0, 1, 2), and the likelihood is constant on the arcs between the 2n angles where some x_iᵀw changes sign,
 * so Z, E[w] and E[wwᵀ] are finite sums of elementary arc integrals: exact to round-off.
 */
public final class RepFigure1 {

  /** The five inputs (see the class comment). */
  public static final double[][] X = {{-2, 1}, {-1.5, -0.5}, {1, 0.5}, {1.5, -1}, {3, 1.5}};
  /** Their labels; the last point is the mislabelled one. */
  public static final double[] Y = {-1, -1, 1, 1, -1};
  /** Index of the mislabelled point. */
  public static final int MISLABELLED = 4;
  /** Prior variance s of w (the linear kernel's signal variance; the paper's k = xᵀx' has s = 1). */
  public static final double SIGNAL_VARIANCE = 1.0;

  /**
   * @param epsilon           the noisy step's ε (paper: 0.2)
   * @param power             Power EP's u for Fig. 1a (paper: 0.8)
   * @param penalty           Relaxed EP's c for Fig. 1a (paper: 20)
   * @param powers            the u grid of Fig. 1b–c
   * @param penalties         the c grid of Fig. 1d–e
   * @param importanceSamples samples of the importance-sampling check of the exact posterior (prior proposal)
   * @param maxSweeps         sweep cap of every run
   */
  public record Config(
      double epsilon,
      double power,
      double penalty,
      List<Double> powers,
      List<Double> penalties,
      long importanceSamples,
      int maxSweeps) {
    public Config {
      powers = List.copyOf(powers);
      penalties = List.copyOf(penalties);
    }

    /**
     * smoke: u ∈ {0.5, 0.8, 1}, c ∈ {1, 20, 10⁴}, 10⁵ samples; quick: u = 0.1, 0.2, …, 1, c = 10^{−1}, 10^{−0.5},
     * …, 10⁴ (11 values), 10⁶ samples; full: u = 0.05, 0.10, …, 1, c = 10^{−2}, 10^{−1.75}, …, 10⁵ (29 values),
     * the paper's 10⁸ samples. Sweep cap 1000 throughout.
     */
    public static Config forMode(ProjectPaths.Mode mode) {
      double eps = RepPaper.FIGURE1_EPSILON;
      double u = RepPaper.FIGURE1_POWER;
      double c = RepPaper.FIGURE1_PENALTY;
      return switch (mode) {
        case SMOKE ->
          new Config(eps, u, c, List.of(0.5, 0.8, 1.0), List.of(1.0, 20.0, 1e4), 100_000, 1000);
        case QUICK ->
          new Config(eps, u, c, grid(0.1, 1.0, 10), logGrid(-1, 4, 11), 1_000_000, 1000);
        case FULL ->
          new Config(
              eps,
              u,
              c,
              grid(0.05, 1.0, 20),
              logGrid(-2, 5, 29),
              RepPaper.FIGURE1_IMPORTANCE_SAMPLES,
              1000);
      };
    }
  }

  /**
   * A Gaussian over w ∈ ℝ².
   *
   * @param mean       E[w]
   * @param covariance Cov[w] (2 × 2, symmetric)
   */
  public record WeightPosterior(double[] mean, double[][] covariance) {
    public WeightPosterior {
      mean = mean.clone();
      covariance = new double[][] {covariance[0].clone(), covariance[1].clone()};
    }

    /** ‖μ − μ'‖² (squared Euclidean distance of the means). */
    public double meanDistance(WeightPosterior o) {
      double d0 = mean[0] - o.mean[0];
      double d1 = mean[1] - o.mean[1];
      return d0 * d0 + d1 * d1;
    }

    /** ‖Σ − Σ'‖_F² (squared Frobenius distance of the covariances). */
    public double covarianceDistance(WeightPosterior o) {
      double s = 0;
      for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
          double d = covariance[i][j] - o.covariance[i][j];
          s += d * d;
        }
      }
      return s;
    }
  }

  /**
   * One approximate fit.
   *
   * @param method        "ep", "power-ep-c" (appendix C), "power-ep" (Minka's), "rep"
   * @param parameter     u (Power EP), c (rep), NaN (ep)
   * @param negativeSites "keep" or "clip"
   * @param posterior     q(w), or null when the run failed
   * @param converged     whether the site loop converged
   * @param sweeps        sweeps run
   * @param negativeSitesAtEnd sites with τ̃ &lt; 0 at the end (0 under "clip")
   * @param message       "" or why it failed
   */
  public record Fit(
      String method,
      double parameter,
      String negativeSites,
      WeightPosterior posterior,
      boolean converged,
      int sweeps,
      int negativeSitesAtEnd,
      String message) {}

  private RepFigure1() {}

  /** The exact posterior of w for ε (see the class comment: polar decomposition, exact to round-off). */
  public static WeightPosterior exact(double epsilon) {
    return exact(X, Y, epsilon, SIGNAL_VARIANCE);
  }

  /** The exact posterior of w ∈ ℝ² under N(0, sI) and the noisy step on (x, y) (x_i ∈ ℝ²). */
  static WeightPosterior exact(double[][] x, double[] y, double epsilon, double s) {
    List<Double> cuts = new ArrayList<>(List.of(0.0, 2 * Math.PI));
    for (double[] xi : x) {
      if (xi[0] != 0 || xi[1] != 0) {
        double phi = Math.atan2(xi[1], xi[0]);
        cuts.add(wrap(phi + Math.PI / 2));
        cuts.add(wrap(phi - Math.PI / 2));
      }
    }
    double[] t = cuts.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    // ∫ L, ∫ L cos, ∫ L sin, ∫ L cos², ∫ L sin cos, ∫ L sin² over the circle
    double[] m = new double[6];
    for (int k = 0; k + 1 < t.length; k++) {
      double a = t[k];
      double b = t[k + 1];
      if (b - a <= 0) {
        continue;
      }
      double mid = 0.5 * (a + b);
      double lik = likelihood(x, y, epsilon, Math.cos(mid), Math.sin(mid));
      double s2 = Math.sin(2 * b) - Math.sin(2 * a);
      m[0] += lik * (b - a);
      m[1] += lik * (Math.sin(b) - Math.sin(a));
      m[2] += lik * (Math.cos(a) - Math.cos(b));
      m[3] += lik * ((b - a) / 2 + s2 / 4);
      m[4] += lik * (Math.cos(2 * a) - Math.cos(2 * b)) / 4;
      m[5] += lik * ((b - a) / 2 - s2 / 4);
    }
    double r1 = Math.sqrt(Math.PI / 2) * Math.sqrt(s);
    double r2 = 2 * s;
    double[] mean = {r1 * m[1] / m[0], r1 * m[2] / m[0]};
    double[][] cov = {
      {r2 * m[3] / m[0] - mean[0] * mean[0], r2 * m[4] / m[0] - mean[0] * mean[1]},
      {r2 * m[4] / m[0] - mean[0] * mean[1], r2 * m[5] / m[0] - mean[1] * mean[1]}
    };
    return new WeightPosterior(mean, cov);
  }

  /**
   * The paper's check: self-normalised importance sampling with the prior N(0, I₂) as proposal, weight =
   * likelihood, {@code n} samples from a seeded generator.
   */
  public static WeightPosterior importanceSampling(double epsilon, long n, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
    double sd = Math.sqrt(SIGNAL_VARIANCE);
    double sw = 0;
    double[] s1 = new double[2];
    double[] s2 = new double[3];
    for (long k = 0; k < n; k++) {
      double w0 = sd * g.sample();
      double w1 = sd * g.sample();
      double lik = likelihood(X, Y, epsilon, w0, w1);
      sw += lik;
      s1[0] += lik * w0;
      s1[1] += lik * w1;
      s2[0] += lik * w0 * w0;
      s2[1] += lik * w0 * w1;
      s2[2] += lik * w1 * w1;
    }
    double[] mean = {s1[0] / sw, s1[1] / sw};
    return new WeightPosterior(mean, new double[][] {
      {s2[0] / sw - mean[0] * mean[0], s2[1] / sw - mean[0] * mean[1]},
      {s2[1] / sw - mean[0] * mean[1], s2[2] / sw - mean[1] * mean[1]}
    });
  }

  /** Π_i (ε + (1 − 2ε) H(y_i x_iᵀw)), paper eq. 8, H(0) = 1. */
  private static double likelihood(double[][] x, double[] y, double eps, double w0, double w1) {
    double p = 1;
    for (int i = 0; i < x.length; i++) {
      double f = x[i][0] * w0 + x[i][1] * w1;
      p *= y[i] * f >= 0 ? 1 - eps : eps;
    }
    return p;
  }

  private static double wrap(double a) {
    double r = a % (2 * Math.PI);
    return r < 0 ? r + 2 * Math.PI : r;
  }

  /**
   * q(w) from the sites of a GP approximation with the linear kernel of signal variance s: Σ_w = (I/s + XᵀS̃X)⁻¹,
   * μ_w = Σ_w Xᵀν̃ (see the class comment). Returns null when I/s + XᵀS̃X is not positive definite.
   */
  public static WeightPosterior fromSites(double[][] x, Sites sites, double s) {
    double[] tau = sites.tau();
    double[] nu = sites.nu();
    double p00 = 1 / s;
    double p01 = 0;
    double p11 = 1 / s;
    double b0 = 0;
    double b1 = 0;
    for (int i = 0; i < x.length; i++) {
      p00 += tau[i] * x[i][0] * x[i][0];
      p01 += tau[i] * x[i][0] * x[i][1];
      p11 += tau[i] * x[i][1] * x[i][1];
      b0 += nu[i] * x[i][0];
      b1 += nu[i] * x[i][1];
    }
    double det = p00 * p11 - p01 * p01;
    if (!(p00 > 0 && det > 0) || !Double.isFinite(det)) {
      return null;
    }
    double[][] cov = {{p11 / det, -p01 / det}, {-p01 / det, p00 / det}};
    return new WeightPosterior(
        new double[] {cov[0][0] * b0 + cov[0][1] * b1, cov[1][0] * b0 + cov[1][1] * b1}, cov);
  }

  /** Runs one method on the five points and maps its sites to q(w). Never throws for a numerical failure. */
  public static Fit fit(Config c, String method, double parameter, String negativeSites) {
    return fit(c, method, parameter, negativeSites, org.approxgp.model.Methods.RepReading.DEFAULT);
  }

  /** {@link #fit(Config, String, double, String)} with Relaxed EP in {@code reading}. */
  public static Fit fit(
      Config c,
      String method,
      double parameter,
      String negativeSites,
      org.approxgp.model.Methods.RepReading reading) {
    return fit(c, method, parameter, negativeSites, reading, null);
  }

  /** {@link #fit(Config, String, double, String)} with Relaxed EP in {@code reading} under the line-search
   * {@code objective} ("clean", "unnormalised", "eq36"; null: clean). */
  public static Fit fit(
      Config c,
      String method,
      double parameter,
      String negativeSites,
      org.approxgp.model.Methods.RepReading reading,
      String objective) {
    Problem problem =
        Problem.of(Linear.of(SIGNAL_VARIANCE), X, Y, RepMethods.likelihood(c.epsilon()));
    double par = method.equals("ep") ? Double.NaN : parameter;
    try {
      Posterior p = RepMethods.method(
              method, parameter, negativeSites, c.maxSweeps(), reading, objective)
          .infer(problem, null);
      Sites sites = p.sites();
      int negative = (int) Arrays.stream(sites.tau()).filter(v -> v < 0).count();
      WeightPosterior w = fromSites(X, sites, SIGNAL_VARIANCE);
      return new Fit(
          method,
          par,
          negativeSites,
          w,
          p.diagnostics().converged(),
          p.diagnostics().iterations(),
          negative,
          w == null ? "q(w) is not a proper Gaussian (I + XᵀS̃X indefinite)" : "");
    } catch (InferenceException e) {
      return new Fit(
          method,
          par,
          negativeSites,
          null,
          false,
          e.diagnostics() == null ? 0 : e.diagnostics().iterations(),
          0,
          e.getMessage());
    }
  }

  /**
   * Figure 1a's numbers: the exact posterior, its importance-sampling estimate, and EP, PEP (App. C), PEP (Minka)
   * (u = {@code power}) and REP (c = {@code penalty}) under each negative-site policy, with their squared distances
   * to the exact posterior.
   */
  public static Table posteriors(Config c, List<String> policies) {
    WeightPosterior ex = exact(c.epsilon());
    Table t = emptyTable("Figure 1a: posterior of w");
    addRow(t, "exact", "", Double.NaN, ex, ex, true, 0, 0, "polar decomposition");
    addRow(
        t,
        "importance",
        "",
        Double.NaN,
        importanceSampling(c.epsilon(), c.importanceSamples(), 1),
        ex,
        true,
        0,
        0,
        c.importanceSamples() + " samples, seed 1");
    for (String pol : policies) {
      for (String m : RepMethods.METHODS) {
        Fit f = fit(
            c,
            m,
            m.equals("ep") ? Double.NaN : RepMethods.isPowerEp(m) ? c.power() : c.penalty(),
            pol);
        addRow(
            t,
            RepMethods.label(f.method()),
            pol,
            f.parameter(),
            f.posterior(),
            ex,
            f.converged(),
            f.sweeps(),
            f.negativeSitesAtEnd(),
            f.message());
      }
    }
    return t;
  }

  /**
   * Figure 1b–e: for {@code method} ("power-ep-c" or "power-ep" over {@link Config#powers}, "rep" over {@link
   * Config#penalties}) the squared distances of q(w)'s mean and covariance to the exact ones, with EP's beside them
   * (rows alternate: the method, then EP at the same grid point; methods by {@link RepMethods#label}).
   */
  public static Table sweep(Config c, String method, String negativeSites) {
    List<Double> grid;
    if (RepMethods.isPowerEp(method)) {
      grid = c.powers();
    } else if (method.equals("rep")) {
      grid = c.penalties();
    } else {
      throw new IllegalArgumentException(
          "sweep is over power-ep-c, power-ep or rep, not " + method);
    }
    WeightPosterior ex = exact(c.epsilon());
    Fit ep = fit(c, "ep", Double.NaN, negativeSites);
    Table t =
        emptyTable("Figure 1 sweep: " + RepMethods.label(method) + " (" + negativeSites + ")");
    for (double v : grid) {
      Fit f = fit(c, method, v, negativeSites);
      addRow(
          t,
          RepMethods.label(method),
          negativeSites,
          v,
          f.posterior(),
          ex,
          f.converged(),
          f.sweeps(),
          f.negativeSitesAtEnd(),
          f.message());
      addRow(
          t,
          RepMethods.label("ep"),
          negativeSites,
          v,
          ep.posterior(),
          ex,
          ep.converged(),
          ep.sweeps(),
          ep.negativeSitesAtEnd(),
          ep.message());
    }
    return t;
  }

  /**
   * Figure 1a as plot data: columns x1, x2, series — the points by class (the mislabelled one apart) and, for
   * each row of a {@link #posteriors} table, the decision boundary μ_wᵀx = 0 as a segment through the origin.
   */
  public static Table boundaries(Table posteriors, String negativeSites) {
    DoubleColumn x1 = DoubleColumn.create("x1");
    DoubleColumn x2 = DoubleColumn.create("x2");
    StringColumn series = StringColumn.create("series");
    for (int i = 0; i < X.length; i++) {
      x1.append(X[i][0]);
      x2.append(X[i][1]);
      series.append(i == MISLABELLED ? "mislabelled (y = -1)" : Y[i] > 0 ? "class +1" : "class -1");
    }
    for (int r = 0; r < posteriors.rowCount(); r++) {
      String pol = posteriors.stringColumn("negative sites").get(r);
      if (!pol.isEmpty() && !pol.equals(negativeSites)) {
        continue;
      }
      double w0 = posteriors.doubleColumn("mean w1").getDouble(r);
      double w1 = posteriors.doubleColumn("mean w2").getDouble(r);
      double norm = Math.hypot(w0, w1);
      if (!(norm > 0)) {
        continue;
      }
      String name = posteriors.stringColumn("method").get(r);
      for (double tt : new double[] {-3.5, 3.5}) {
        x1.append(-tt * w1 / norm);
        x2.append(tt * w0 / norm);
        series.append("boundary " + name);
      }
    }
    return Table.create("Figure 1a: decision boundaries (" + negativeSites + ")", x1, x2, series);
  }

  /**
   * The rows of {@link #sweep} tables for one chart: every row of the first (the method, then EP), and the method's
   * rows of the others (their EP rows repeat the first's), e.g. PEP (App. C) and PEP (Minka) over u with EP once.
   */
  public static Table together(Table first, Table... others) {
    Table t = first.copy().setName(first.name());
    for (Table o : others) {
      t.append(o.where(o.stringColumn("method").isNotEqualTo(RepMethods.label("ep"))));
    }
    return t;
  }

  /**
   * The claims of Figure 1 ({@link RepPaper#CLAIMS} 1a, 1b–c, 1d–e) against our numbers for one policy: the
   * squared distances of Fig. 1a's fits, the fraction of the u grid (u &lt; 1) where PEP is further from the exact
   * posterior than EP, the fraction of the c grid where REP is closer than EP, and whether REP equals EP (to 1e-6 in
   * both distances) at the largest c. Each row says whether the claim reproduces. 1a and 1b–c are decided with the
   * paper's Power EP (appendix C, {@code pepSweep}; column "counted" = {@link RepMethods#COUNTED}) and checked again
   * with Minka's ({@code minkaSweep}), beside and not counted.
   */
  public static Table agreement(
      Table posteriors, Table pepSweep, Table minkaSweep, Table repSweep, String negativeSites) {
    StringColumn fig = StringColumn.create("figure");
    StringColumn claim = StringColumn.create("paper's claim");
    StringColumn pepColumn = StringColumn.create("PEP");
    StringColumn ours = StringColumn.create("ours");
    StringColumn verdict = StringColumn.create("reproduces");
    StringColumn counted = StringColumn.create("counted");
    for (String pep : RepMethods.POWER_EPS) {
      Table sweep = pep.equals(RepMethods.POWER_EP_APPENDIX_C) ? pepSweep : minkaSweep;
      double[] d = new double[3];
      List<String> names =
          List.of(RepMethods.label("ep"), RepMethods.label(pep), RepMethods.label("rep"));
      for (int r = 0; r < posteriors.rowCount(); r++) {
        int k = names.indexOf(posteriors.stringColumn("method").get(r));
        if (k >= 0 && posteriors.stringColumn("negative sites").get(r).equals(negativeSites)) {
          d[k] = posteriors.doubleColumn("mean sq. dist").getDouble(r);
        }
      }
      String pl = RepMethods.label(pep);
      fig.append("1a");
      claim.append("boundary: REP overlaps the exact one, PEP closer than EP");
      pepColumn.append(pl);
      ours.append(String.format(
          java.util.Locale.ROOT, "mean sq. dist EP %.3g, %s %.3g, REP %.3g", d[0], pl, d[1], d[2]));
      verdict.append(figure1a(d[0], d[1], d[2]));
      counted.append(RepMethods.counted(pep));
      double[] f = fractionBetter(sweep, pep, false);
      fig.append("1b–c");
      claim.append("PEP's mean and covariance always further from exact than EP's");
      pepColumn.append(pl);
      ours.append(String.format(
          java.util.Locale.ROOT,
          "%s further than EP for %.0f%% (mean) / %.0f%% (cov) of u < 1",
          pl,
          100 * f[3],
          100 * f[4]));
      verdict.append(alwaysFurther(f[3], f[4]));
      counted.append(RepMethods.counted(pep));
      if (pep.equals(RepMethods.POWER_EP_APPENDIX_C)) {
        double[] rep = fractionBetter(repSweep, "rep", false);
        double[] last = fractionBetter(repSweep, "rep", true);
        fig.append("1d–e");
        claim.append("REP = EP for large c; REP closer than EP for a wide range of c");
        pepColumn.append("—");
        ours.append(String.format(
            java.util.Locale.ROOT,
            "REP closer for %.0f%% (mean) / %.0f%% (cov) of the c grid; "
                + "REP = EP at the largest c: %s",
            100 * rep[0],
            100 * rep[1],
            last[2] > 0 ? "yes" : "no"));
        verdict.append(
            last[2] > 0 && rep[0] >= 0.3 && rep[1] >= 0.3
                ? "yes"
                : last[2] > 0 ? "partly (REP = EP only)" : "no");
        counted.append(RepMethods.COUNTED);
      }
    }
    return Table.create(
        "Figure 1: the paper's claims against ours (" + negativeSites + ")",
        fig,
        claim,
        pepColumn,
        ours,
        verdict,
        counted);
  }

  /**
   * Figure 1a's rule on the squared distances of the means to the exact one: REP below PEP below EP: "yes"; REP
   * below EP only: "partly (REP better than EP)"; else "no".
   */
  static String figure1a(double ep, double pep, double rep) {
    return rep < pep && pep < ep ? "yes" : rep < ep ? "partly (REP better than EP)" : "no";
  }

  /**
   * Figure 1b–c's rule on the fractions of the u grid (u &lt; 1) where PEP is strictly further than EP, in mean and
   * in covariance: both 1: "yes"; both at least ½: "mostly"; else "no".
   */
  static String alwaysFurther(double mean, double cov) {
    return mean == 1 && cov == 1 ? "yes" : mean >= 0.5 && cov >= 0.5 ? "mostly" : "no";
  }

  /**
   * From a {@link #sweep} table: {fraction of grid points where {@code method} beats EP in mean distance, the same
   * for covariance, (only with {@code lastOnly}) 1 if it equals EP to 1e-6 at the last grid point, fraction where
   * it is strictly worse than EP in mean distance (beyond 1e-12), the same for covariance}. Grid points
   * where the method is EP itself (u = 1) are left out; a failed fit counts as not better.
   */
  static double[] fractionBetter(Table sweep, String method, boolean lastOnly) {
    int n = 0;
    int bm = 0;
    int bc = 0;
    int wm = 0;
    int wc = 0;
    double equal = 0;
    for (int r = 0; r + 1 < sweep.rowCount(); r += 2) {
      double par = sweep.doubleColumn("parameter").getDouble(r);
      if (RepMethods.isPowerEp(method) && par >= 1) {
        continue;
      }
      double mm = sweep.doubleColumn("mean sq. dist").getDouble(r);
      double mc = sweep.doubleColumn("cov sq. dist").getDouble(r);
      double em = sweep.doubleColumn("mean sq. dist").getDouble(r + 1);
      double ec = sweep.doubleColumn("cov sq. dist").getDouble(r + 1);
      n++;
      bm += mm < em ? 1 : 0;
      bc += mc < ec ? 1 : 0;
      wm += mm > em + 1e-12 ? 1 : 0;
      wc += mc > ec + 1e-12 ? 1 : 0;
      equal = Math.abs(mm - em) < 1e-6 && Math.abs(mc - ec) < 1e-6 ? 1 : 0;
    }
    return new double[] {
      n == 0 ? Double.NaN : (double) bm / n,
      n == 0 ? Double.NaN : (double) bc / n,
      lastOnly ? equal : Double.NaN,
      n == 0 ? Double.NaN : (double) wm / n,
      n == 0 ? Double.NaN : (double) wc / n
    };
  }

  private static Table emptyTable(String name) {
    return Table.create(
        name,
        StringColumn.create("method"),
        StringColumn.create("negative sites"),
        DoubleColumn.create("parameter"),
        DoubleColumn.create("mean w1"),
        DoubleColumn.create("mean w2"),
        DoubleColumn.create("cov11"),
        DoubleColumn.create("cov12"),
        DoubleColumn.create("cov22"),
        DoubleColumn.create("mean sq. dist"),
        DoubleColumn.create("cov sq. dist"),
        BooleanColumn.create("converged"),
        DoubleColumn.create("sweeps"),
        DoubleColumn.create("negative sites at end"),
        StringColumn.create("message"));
  }

  private static void addRow(
      Table t,
      String method,
      String pol,
      double par,
      WeightPosterior w,
      WeightPosterior ex,
      boolean converged,
      int sweeps,
      int negative,
      String message) {
    t.stringColumn("method").append(method);
    t.stringColumn("negative sites").append(pol);
    t.doubleColumn("parameter").append(par);
    boolean ok = w != null;
    t.doubleColumn("mean w1").append(ok ? w.mean()[0] : Double.NaN);
    t.doubleColumn("mean w2").append(ok ? w.mean()[1] : Double.NaN);
    t.doubleColumn("cov11").append(ok ? w.covariance()[0][0] : Double.NaN);
    t.doubleColumn("cov12").append(ok ? w.covariance()[0][1] : Double.NaN);
    t.doubleColumn("cov22").append(ok ? w.covariance()[1][1] : Double.NaN);
    t.doubleColumn("mean sq. dist").append(ok ? w.meanDistance(ex) : Double.NaN);
    t.doubleColumn("cov sq. dist").append(ok ? w.covarianceDistance(ex) : Double.NaN);
    t.booleanColumn("converged").append(converged);
    t.doubleColumn("sweeps").append(sweeps);
    t.doubleColumn("negative sites at end").append(negative);
    t.stringColumn("message").append(message);
  }

  /** n equally spaced values from a to b inclusive. */
  static List<Double> grid(double a, double b, int n) {
    List<Double> g = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      g.add(n == 1 ? a : a + (b - a) * i / (n - 1));
    }
    return g;
  }

  /** n values 10^e equally spaced in e from lo to hi inclusive. */
  static List<Double> logGrid(double lo, double hi, int n) {
    return grid(lo, hi, n).stream().map(e -> Math.pow(10, e)).toList();
  }
}
