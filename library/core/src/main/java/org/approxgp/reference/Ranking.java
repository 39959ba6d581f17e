package org.approxgp.reference;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which approximate posterior is closest to the sampled truth, said only where the data say it: a paired comparison
 * over the latents, with the truth's Monte-Carlo noise in its standard error.
 *
 * <p>For a {@link Score} with per-latent contributions eᵢ (the squared error of a mean or of a variance, or the KL of
 * {@link Comparison}) and two methods A and B, dᵢ = eᵢ(A) − eᵢ(B). The difference of their scores is d̄ = mean dᵢ;
 * its standard error combines the spread over the latents, s_d²/n (as if the latents were a sample of points like
 * them), with the truth's noise, propagated to first order: (1/n)² Σᵢ (∂dᵢ/∂mᵢ)² εᵢ² + (∂dᵢ/∂sᵢ²)² ηᵢ² (εᵢ, ηᵢ the
 * Monte-Carlo standard errors of the truth's mean and variance). A is closer than B when d̄/se ≤ −{@link #Z}.
 * "Closest" names a method only when it is closer than every other; otherwise the verdict names the methods it cannot
 * be told from. Two methods whose marginals are equal to 1e-12 are reported as identical, not ranked.
 *
 * <p>The sampler's {@link SampledPosterior.Decision} ({@link #decision}): the truth is precise enough when, for each
 * score and each pair of methods adjacent in its order, the truth's part of the standard error is at most
 * {@link #FRACTION} of the difference. Pairs that need more are named; the sampler's cap then ends the run and the
 * verdict may say "undecided".
 */
public final class Ranking {
  /** Significance threshold of the paired comparison, in standard errors. */
  public static final double Z = 3;

  /** Largest ratio of the truth's Monte-Carlo standard error to a ranked difference that the sampler accepts. */
  public static final double FRACTION = 0.25;

  /** The ranked scores. */
  public enum Score {
    MEAN("posterior means"),
    VARIANCE("marginal variances"),
    KL("mean KL");

    private final String label;

    Score(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /** A method's marginals. */
  public record Marginals(String method, double[] mean, double[] variance) {
    public Marginals {
      mean = mean.clone();
      variance = variance.clone();
      if (mean.length != variance.length) {
        throw new IllegalArgumentException(
            method + ": " + mean.length + " means, " + variance.length + " variances");
      }
    }
  }

  /**
   * One pair's comparison.
   *
   * @param a the method with the smaller score
   * @param b the other
   * @param difference score(a) − score(b) (≤ 0)
   * @param stdError its standard error, points and truth noise
   * @param truthStdError the truth noise's part
   * @param identical whether the two methods' marginals are equal (to 1e-12)
   */
  public record Pair(
      String a,
      String b,
      double difference,
      double stdError,
      double truthStdError,
      boolean identical) {
    /** Whether a is significantly closer than b. */
    public boolean significant() {
      return !identical && difference < 0 && -difference >= Z * stdError;
    }
  }

  /**
   * A score's verdict.
   *
   * @param score the score
   * @param order the methods by increasing score
   * @param closest the methods not significantly worse than the first (one name: decided)
   * @param text the sentence for a report
   */
  public record Verdict(Score score, List<String> order, List<String> closest, String text) {
    public boolean decided() {
      return closest.size() == 1;
    }
  }

  private final double[] m;
  private final double[] v;
  private final double[] em;
  private final double[] ev;
  private final List<Marginals> methods;

  public Ranking(SampledPosterior truth, List<Marginals> methods) {
    this.m = truth.mean();
    this.v = truth.variance();
    this.em = truth.meanStdError();
    this.ev = truth.varianceStdError();
    this.methods = List.copyOf(methods);
    for (Marginals q : methods) {
      if (q.mean().length != m.length) {
        throw new IllegalArgumentException(
            q.method() + " has " + q.mean().length + " marginals, the truth " + m.length);
      }
    }
  }

  /** The stop rule for the sampler, given the methods' marginals (the truth is what it samples). */
  public static SampledPosterior.Decision decision(List<Marginals> methods) {
    return current -> new Ranking(current, methods).pending();
  }

  /** Per-latent contributions of {@code score} for {@code q}. */
  double[] contributions(Score score, Marginals q) {
    int n = m.length;
    double[] e = new double[n];
    double[] mu = q.mean;
    double[] s2 = q.variance;
    for (int i = 0; i < n; i++) {
      double d = mu[i] - m[i];
      e[i] = switch (score) {
        case MEAN -> d * d;
        case VARIANCE -> (s2[i] - v[i]) * (s2[i] - v[i]);
        case KL -> 0.5 * (Math.log(s2[i] / v[i]) + (v[i] + d * d) / s2[i] - 1);
      };
    }
    return e;
  }

  private static double meanOf(double[] e) {
    double s = 0;
    for (double x : e) {
      s += x;
    }
    return s / e.length;
  }

  /** The comparison of {@code a} and {@code b} on {@code score}, ordered so that the first is the smaller. */
  public Pair pair(Score score, Marginals a, Marginals b) {
    int n = m.length;
    double[] ea = contributions(score, a);
    double[] eb = contributions(score, b);
    double dbar = meanOf(ea) - meanOf(eb);
    if (dbar > 0) {
      return pair(score, b, a);
    }
    boolean identical = true;
    double ss = 0;
    double truth = 0;
    for (int i = 0; i < n; i++) {
      identical &= close(a.mean[i], b.mean[i]) && close(a.variance[i], b.variance[i]);
      double d = ea[i] - eb[i] - dbar;
      ss += d * d;
      double gm;
      double gv;
      switch (score) {
        case MEAN -> {
          gm = 2 * (b.mean[i] - a.mean[i]);
          gv = 0;
        }
        case VARIANCE -> {
          gm = 0;
          gv = 2 * (b.variance[i] - a.variance[i]);
        }
        default -> {
          gm = (m[i] - a.mean[i]) / a.variance[i] - (m[i] - b.mean[i]) / b.variance[i];
          gv = 0.5 * (1 / a.variance[i] - 1 / b.variance[i]);
        }
      }
      truth += gm * gm * em[i] * em[i] + gv * gv * ev[i] * ev[i];
    }
    double truthSe = Math.sqrt(truth) / n;
    double se = Math.sqrt(ss / (n - 1) / n + truthSe * truthSe);
    return new Pair(a.method(), b.method(), dbar, se, truthSe, identical);
  }

  private static boolean close(double x, double y) {
    return Math.abs(x - y) <= 1e-12 * Math.max(1, Math.max(Math.abs(x), Math.abs(y)));
  }

  /** The methods by increasing {@code score}. */
  public List<Marginals> order(Score score) {
    Map<Marginals, Double> s = new LinkedHashMap<>();
    for (Marginals q : methods) {
      s.put(q, meanOf(contributions(score, q)));
    }
    List<Marginals> o = new ArrayList<>(methods);
    o.sort(Comparator.comparingDouble(s::get));
    return o;
  }

  /** The verdict on {@code score}. */
  public Verdict verdict(Score score) {
    List<Marginals> o = order(score);
    List<String> names = o.stream().map(Marginals::method).toList();
    if (o.isEmpty()) {
      return new Verdict(score, names, List.of(), "no method");
    }
    Marginals best = o.get(0);
    List<String> closest = new ArrayList<>(List.of(best.method()));
    List<String> same = new ArrayList<>();
    for (Marginals q : o.subList(1, o.size())) {
      Pair p = pair(score, best, q);
      if (p.identical()) {
        same.add(q.method());
      } else if (!p.significant()) {
        closest.add(q.method());
      }
    }
    String text;
    String twin = same.isEmpty() ? "" : " (identical to it: " + String.join(", ", same) + ")";
    if (closest.size() == 1) {
      text = String.format(
          Locale.ROOT,
          "closest %s: %s%s, closer than every other method by a paired comparison over the latents"
              + " (|difference| >= %.0f standard errors)",
          score.label(),
          best.method(),
          twin,
          Z);
    } else {
      text = String.format(
          Locale.ROOT,
          "closest %s: undecided between %s%s (differences within %.0f standard errors)",
          score.label(),
          String.join(", ", closest),
          twin,
          Z);
    }
    List<String> close = new ArrayList<>(closest);
    close.addAll(same);
    return new Verdict(score, names, close, text);
  }

  /**
   * Null when the truth's noise is at most {@link #FRACTION} of every adjacent difference of every score, otherwise
   * the first pair that needs more draws.
   */
  public String pending() {
    for (Score score : Score.values()) {
      List<Marginals> o = order(score);
      for (int k = 0; k + 1 < o.size(); k++) {
        Pair p = pair(score, o.get(k), o.get(k + 1));
        if (!p.identical() && p.truthStdError() > FRACTION * Math.abs(p.difference())) {
          return String.format(
              Locale.ROOT,
              "%s %s vs %s: truth's error %.2g > %.2f x difference %.2g",
              score.name().toLowerCase(Locale.ROOT),
              p.a(),
              p.b(),
              p.truthStdError(),
              FRACTION,
              Math.abs(p.difference()));
        }
      }
    }
    return null;
  }
}
