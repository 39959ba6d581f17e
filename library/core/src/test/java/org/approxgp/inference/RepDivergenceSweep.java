package org.approxgp.inference;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.reference.GaussianReference;
import org.approxgp.reference.SampledPosterior;

/**
 * A seeded search (a bench, not a test) for such a case: EP oscillates or diverges and
 * Relaxed EP (Qi &amp; Guo, Algorithm 1) converges on the same noisy-step GP classification problem.
 *
 * <p>Grid: {@link NoisyData} seeds × n × flip rate × ε × SE-iso length-scale ℓ (σ² fixed) × negative-site
 * policy. Phase 1 runs EP on every configuration; phase 2 runs every REP variant on every configuration
 * where EP did not converge, and on the first {@code control} configurations where it did (to see
 * whether REP converges where EP does). Every run: sequential schedule, tolerance 1e-6, sweep cap 300,
 * oscillation window 50 (the library defaults), no gradient. Prints one table row per
 * (ε, ℓ, n, policy) group and one row per REP variant.
 *
 * <p>The system property {@code rep.only=SUFFIX} keeps only the variants whose name ends with SUFFIX (e.g. "B").
 * Other modes: {@code detail SEED N EPS ELL POLICY} (one configuration against an elliptical-slice-sampling
 * reference) and {@code threshold SEEDS} (the c below which REP leaves EP's fixed point).
 *
 * <p>Run: {@code java -cp library/core/target/classes:library/core/target/test-classes:CP
 * org.approxgp.inference.RepDivergenceSweep [SEEDS] [CONTROL]} (CP from {@code mvn dependency:build-classpath},
 * as {@code bin/bench} does).
 */
public final class RepDivergenceSweep {

  private RepDivergenceSweep() {}

  /** One configuration of the grid. */
  record Config(
      long seed,
      int n,
      double flip,
      double eps,
      double ell,
      double sf2,
      SiteLoop.NegativeSitePrecision policy) {

    Problem problem() {
      NoisyData d = NoisyData.of(seed, n, flip);
      return Problem.of(SquaredExponential.iso(ell, sf2), d.x, d.y, NoisyStep.of(eps));
    }

    String group() {
      return String.format(Locale.ROOT, "eps=%.2f ell=%.1f n=%d %s", eps, ell, n, policy);
    }
  }

  /** Outcome of one run. */
  enum Outcome {
    CONVERGED,
    OSCILLATION,
    CAP,
    FAILED
  }

  record Run(Outcome outcome, int sweeps, double finalChange, int relaxed) {}

  static Run run(Problem p, SiteUpdate<?> rule, SiteLoop.NegativeSitePrecision policy) {
    SiteLoopOptions opt =
        SiteLoopOptions.defaults().withGradient(false).withMaxSweeps(300).withNegativeSites(policy);
    try {
      Diagnostics d = SiteLoop.run(p, rule, opt, null).diagnostics();
      Outcome o = d.converged()
          ? Outcome.CONVERGED
          : d.message().contains("oscillation") ? Outcome.OSCILLATION : Outcome.CAP;
      return new Run(o, d.iterations(), d.finalChange(), d.relaxedSites());
    } catch (InferenceException e) {
      Diagnostics d = e.diagnostics();
      return new Run(Outcome.FAILED, d == null ? -1 : d.iterations(), Double.NaN, 0);
    }
  }

  /**
   * One configuration in detail: EP, damped EP, Power EP and REP at several c — verdict, sweeps, log Z,
   * and the RMS distance of each posterior mean and variance to an elliptical-slice-sampling reference.
   */
  static void detail(Config c) {
    Problem p = c.problem();
    SampledPosterior ref = SampledPosterior.sample(
        p, GaussianReference.prior(p), SampledPosterior.Options.defaults().withSeed(1), line -> {});
    System.out.println(c + "\nreference: " + ref);
    SiteLoopOptions opt = SiteLoopOptions.defaults()
        .withGradient(false)
        .withMaxSweeps(300)
        .withNegativeSites(c.policy());
    List<SiteUpdate<?>> rules = List.of(
        MomentMatching.ep(),
        MomentMatching.ep(),
        PowerEp.of(0.8),
        RelaxedEp.of(0.01),
        RelaxedEp.of(0.1),
        RelaxedEp.of(1),
        RelaxedEp.of(10));
    for (int r = 0; r < rules.size(); r++) {
      SiteLoopOptions o = r == 1 ? opt.withDamping(0.5).withMaxSweeps(1000) : opt;
      try {
        Posterior post = SiteLoop.run(p, rules.get(r), o, null);
        Diagnostics d = post.diagnostics();
        double em = 0;
        double ev = 0;
        for (int i = 0; i < p.size(); i++) {
          em += Math.pow(post.mean()[i] - ref.mean()[i], 2);
          ev += Math.pow(post.variance()[i] - ref.variance()[i], 2);
        }
        List<Double> a = d.alphaTrace();
        System.out.printf(
            Locale.ROOT,
            "%-22s %-5s conv=%-5s sweeps=%3d relaxed=%3d logZ=%10.5f rmsMean=%.4f "
                + "rmsVar=%.4f lastR=%s%n",
            rules.get(r).name(),
            r == 1 ? "d0.5" : "",
            d.converged(),
            d.iterations(),
            d.relaxedSites(),
            post.logEvidence(),
            Math.sqrt(em / p.size()),
            Math.sqrt(ev / p.size()),
            a.subList(Math.max(0, a.size() - 4), a.size()));
      } catch (InferenceException e) {
        System.out.println(rules.get(r).name() + " FAILED " + e.getMessage());
      }
    }
  }

  /**
   * The largest c at which Relaxed EP relaxes any site of EP's own fixed point: with G(b) = Q(b) + c|b|,
   * b = 0 is a local minimum exactly when −c ≤ Q'(0) ≤ c (one-sided slopes by differences of step
   * 1e-6/λ), so c* = max over sites of max(−Q'(0⁺), Q'(0⁻)). Below c* REP leaves EP's fixed point; above
   * it EP's fixed point is REP's too (for the local line search from b = 0). Computed at the fixed point
   * of EP damped by 0.5 (which converges more often than undamped EP) for both objectives, per ε.
   */
  static void thresholds(int seeds) {
    System.out.printf(
        Locale.ROOT,
        "%-28s %4s %10s %10s %10s %10s%n",
        "group (KEEP, EP damped 0.5)",
        "runs",
        "c* clean",
        "max",
        "c* eq36",
        "max");
    for (double eps : new double[] {0.02, 0.05, 0.1, 0.2}) {
      for (double ell : new double[] {0.5, 1, 2}) {
        List<Double> clean = new ArrayList<>();
        List<Double> eq36 = new ArrayList<>();
        for (long s = 0; s < seeds; s++) {
          Config c = new Config(s, 100, 0.2, eps, ell, 10, SiteLoop.NegativeSitePrecision.KEEP);
          Problem p = c.problem();
          SiteLoopOptions o = SiteLoopOptions.defaults()
              .withGradient(false)
              .withMaxSweeps(1000)
              .withDamping(0.5)
              .withNegativeSites(c.policy());
          Posterior post;
          try {
            post = SiteLoop.run(p, MomentMatching.ep(), o, null);
          } catch (InferenceException e) {
            continue;
          }
          if (!post.diagnostics().converged()) {
            continue;
          }
          clean.add(threshold(p, post, RelaxedEp.unpenalised(RelaxedEp.Objective.CLEAN)));
          eq36.add(threshold(p, post, RelaxedEp.unpenalised(RelaxedEp.Objective.EQ36)));
        }
        System.out.printf(
            Locale.ROOT,
            "eps=%.2f ell=%.1f n=100        %4d %10.3g %10.3g %10.3g %10.3g%n",
            eps,
            ell,
            clean.size(),
            median(clean),
            max(clean),
            median(eq36),
            max(eq36));
      }
    }
  }

  private static double threshold(Problem p, Posterior post, RelaxedEp rep) {
    double best = 0;
    for (int i = 0; i < p.size(); i++) {
      double tau = post.sites().tau()[i];
      double nu = post.sites().nu()[i];
      SiteUpdate.Cavity cav = new SiteUpdate.Cavity(
          1 / post.variance()[i] - tau, post.mean()[i] / post.variance()[i] - nu);
      double m = tau != 0 ? nu / tau : 0;
      double d = 1e-6 / cav.variance();
      double y = p.y()[i];
      double g0 = rep.objective(p.likelihood(), y, cav, m, 0);
      double right = (rep.objective(p.likelihood(), y, cav, m, d) - g0) / d;
      double left = (g0 - rep.objective(p.likelihood(), y, cav, m, -d)) / d;
      best = Math.max(best, Math.max(-right, left));
    }
    return best;
  }

  private static double median(List<Double> v) {
    if (v.isEmpty()) {
      return Double.NaN;
    }
    List<Double> s = new ArrayList<>(v);
    s.sort(null);
    return s.get(s.size() / 2);
  }

  private static double max(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("threshold")) {
      thresholds(Integer.parseInt(args[1]));
      return;
    }
    if (args.length > 0 && args[0].equals("detail")) {
      detail(new Config(
          Long.parseLong(args[1]),
          Integer.parseInt(args[2]),
          0.2,
          Double.parseDouble(args[3]),
          Double.parseDouble(args[4]),
          10,
          SiteLoop.NegativeSitePrecision.valueOf(args[5])));
      return;
    }
    int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
    int control = args.length > 1 ? Integer.parseInt(args[1]) : 12;
    int[] ns = {60, 100};
    double[] flips = {0.2};
    double[] epss = {0.02, 0.05, 0.1, 0.2};
    double[] ells = {0.5, 1, 2};
    double sf2 = 10;
    Map<String, Supplier<SiteUpdate<?>>> variants = new LinkedHashMap<>();
    for (double c : new double[] {0.01, 0.1, 1, 10}) {
      variants.put(String.format(Locale.ROOT, "rep c=%-5s B", c), () -> RelaxedEp.of(c));
      variants.put(
          String.format(Locale.ROOT, "rep c=%-5s A", c),
          () -> RelaxedEp.of(c, RelaxedEp.Objective.CLEAN, RelaxedEp.SiteReading.A));
    }
    variants.put("power-ep u=0.8", () -> PowerEp.of(0.8));
    if (System.getProperty("rep.only") != null) {
      variants.keySet().removeIf(k -> !k.endsWith(System.getProperty("rep.only")));
    }

    List<Config> configs = new ArrayList<>();
    for (SiteLoop.NegativeSitePrecision pol : SiteLoop.NegativeSitePrecision.values()) {
      for (int n : ns) {
        for (double flip : flips) {
          for (double eps : epss) {
            for (double ell : ells) {
              for (long s = 0; s < seeds; s++) {
                configs.add(new Config(s, n, flip, eps, ell, sf2, pol));
              }
            }
          }
        }
      }
    }
    long t0 = System.nanoTime();
    System.out.printf(
        Locale.ROOT,
        "phase 1: EP on %d configurations (seeds 0..%d, flip %s, sf2 %.0f)%n",
        configs.size(),
        seeds - 1,
        java.util.Arrays.toString(flips),
        sf2);
    Map<Config, Run> ep = new LinkedHashMap<>();
    for (Config c : configs) {
      ep.put(c, run(c.problem(), MomentMatching.ep(), c.policy()));
    }
    Map<String, int[]> groups = new LinkedHashMap<>();
    for (Map.Entry<Config, Run> e : ep.entrySet()) {
      int[] g = groups.computeIfAbsent(e.getKey().group(), k -> new int[4]);
      g[e.getValue().outcome().ordinal()]++;
    }
    System.out.printf(
        Locale.ROOT, "%-36s %5s %5s %5s %5s%n", "group", "conv", "osc", "cap", "fail");
    for (Map.Entry<String, int[]> g : groups.entrySet()) {
      int[] v = g.getValue();
      System.out.printf(Locale.ROOT, "%-36s %5d %5d %5d %5d%n", g.getKey(), v[0], v[1], v[2], v[3]);
    }
    System.out.printf(Locale.ROOT, "phase 1: %.0f s%n", (System.nanoTime() - t0) * 1e-9);

    List<Config> bad = new ArrayList<>();
    List<Config> good = new ArrayList<>();
    for (Map.Entry<Config, Run> e : ep.entrySet()) {
      (e.getValue().outcome() == Outcome.CONVERGED ? good : bad).add(e.getKey());
    }
    // an even spread of controls over the converged configurations
    List<Config> controls = new ArrayList<>();
    for (int k = 0; k < Math.min(control, good.size()); k++) {
      controls.add(good.get((int) ((long) k * good.size() / Math.min(control, good.size()))));
    }
    System.out.printf(
        Locale.ROOT,
        "%nphase 2: %d configurations where EP did not converge, %d controls%n",
        bad.size(),
        controls.size());
    System.out.printf(
        Locale.ROOT,
        "%-18s | %-37s | %-37s%n",
        "",
        "EP not converged: REP conv/osc/cap/fail",
        "EP converged: REP conv/osc/cap/fail");
    for (Map.Entry<String, Supplier<SiteUpdate<?>>> v : variants.entrySet()) {
      int[] a = new int[4];
      int[] b = new int[4];
      double worstFinal = 0;
      int relaxedMax = 0;
      for (Config c : bad) {
        Run r = run(c.problem(), v.getValue().get(), c.policy());
        a[r.outcome().ordinal()]++;
        relaxedMax = Math.max(relaxedMax, r.relaxed());
        if (r.outcome() == Outcome.CONVERGED) {
          System.out.printf(
              Locale.ROOT,
              "  FOUND %s converges (%d sweeps, %d relaxed) where EP %s: %s%n",
              v.getKey(),
              r.sweeps(),
              r.relaxed(),
              ep.get(c).outcome(),
              c);
        }
      }
      for (Config c : controls) {
        Run r = run(c.problem(), v.getValue().get(), c.policy());
        b[r.outcome().ordinal()]++;
        relaxedMax = Math.max(relaxedMax, r.relaxed());
        if (r.outcome() == Outcome.OSCILLATION || r.outcome() == Outcome.CAP) {
          worstFinal = Math.max(worstFinal, r.finalChange());
          System.out.printf(
              Locale.ROOT,
              "  %s does not converge (final change %.2e, %d relaxed) where EP does: %s%n",
              v.getKey(),
              r.finalChange(),
              r.relaxed(),
              c);
        }
      }
      System.out.printf(
          Locale.ROOT,
          "%-18s | %8d %8d %8d %8d  | %8d %8d %8d %8d  (max relaxed %d)%n",
          v.getKey(),
          a[0],
          a[1],
          a[2],
          a[3],
          b[0],
          b[1],
          b[2],
          b[3],
          relaxedMax);
    }
    System.out.printf(Locale.ROOT, "total %.0f s%n", (System.nanoTime() - t0) * 1e-9);
  }
}
