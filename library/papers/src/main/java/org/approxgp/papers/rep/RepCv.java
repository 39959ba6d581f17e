package org.approxgp.papers.rep;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.data.Split;
import org.approxgp.data.Splits;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Linalg;
import org.approxgp.model.Methods;

/**
 * Fits and model selection shared by the REP experiments: one GP classifier with the isotropic SE kernel and the
 * noisy-step likelihood, its test error, and k-fold cross-validation of (length-scale, method parameter) on the
 * training data (paper §6.2: "cross-validation on the training data to tune the kernel width ... also tuned the
 * relaxation weight c for REP and the power for PEP").
 *
 * <p>The SE kernel's signal variance is fixed at 1: the noisy step depends on f only through sign(f), so scaling
 * the prior covariance by s scales f and leaves every predictive class probability, and EP's fixed points up to
 * the same scaling, unchanged — the amplitude is not a free parameter of this model.
 */
final class RepCv {

  private RepCv() {}

  /**
   * A model choice.
   *
   * @param lengthscale SE length-scale
   * @param parameter   u (power-ep), c (rep), NaN (ep)
   * @param cvError     the mean held-out error (NaN when not cross-validated)
   */
  record Choice(double lengthscale, double parameter, double cvError) {}

  /**
   * How far apart two cross-validation errors must be to differ: closer ones are tied, and a tie keeps the earlier
   * grid point. A cross-validation error is the mean over F folds of each fold's error count over its m held-out
   * rows ({@link Splits#kFold}: every fold holds out m = ⌊n/F⌋), so it is a multiple of 1/(F·m), and the mean over
   * the methods that {@link #sharedLengthscale} compares is a multiple of 1/(3·F·m): two distinct values differ by
   * at least 1/(3n) (above 10⁻⁴ for every n here, n ≤ 1,000 training rows). Two equal ones, from the same total
   * count spread differently over the folds, are summed in another order and can differ by a few units in the
   * last place (10⁻¹⁶: 74/318 once came out as 0.23270440251572325 at one length-scale and 0.2327044025157233 at
   * another), and the comparison then turned on that last bit instead of the tie rule. 10⁻⁹ is far above the
   * rounding and far below the smallest real difference.
   */
  static final double TIE = 1e-9;

  /** Whether cross-validation error {@code a} is lower than {@code b} beyond a tie ({@link #TIE}). */
  static boolean lower(double a, double b) {
    return a < b - TIE;
  }

  /** The posterior of one run (never null), or null on a numerical failure. */
  static Posterior fit(
      double[][] x,
      double[] y,
      double lengthscale,
      String method,
      double parameter,
      double epsilon,
      String negativeSites,
      int maxSweeps) {
    return fit(
        x,
        y,
        lengthscale,
        method,
        parameter,
        epsilon,
        negativeSites,
        maxSweeps,
        Methods.RepReading.DEFAULT);
  }

  /** {@link #fit(double[][], double[], double, String, double, double, String, int)} with Relaxed EP's reading. */
  static Posterior fit(
      double[][] x,
      double[] y,
      double lengthscale,
      String method,
      double parameter,
      double epsilon,
      String negativeSites,
      int maxSweeps,
      Methods.RepReading reading) {
    return fit(
        x, y, lengthscale, method, parameter, epsilon, negativeSites, maxSweeps, reading, null);
  }

  /** {@link #fit(double[][], double[], double, String, double, double, String, int)} with Relaxed EP's reading and
   * line-search objective ({@link RepMethods#method(String, double, String, int, Methods.RepReading, String)}). */
  static Posterior fit(
      double[][] x,
      double[] y,
      double lengthscale,
      String method,
      double parameter,
      double epsilon,
      String negativeSites,
      int maxSweeps,
      Methods.RepReading reading,
      String objective) {
    Problem p =
        Problem.of(SquaredExponential.iso(lengthscale, 1.0), x, y, RepMethods.likelihood(epsilon));
    try {
      return RepMethods.method(method, parameter, negativeSites, maxSweeps, reading, objective)
          .infer(p, null);
    } catch (InferenceException e) {
      return null;
    }
  }

  /**
   * Fraction of test points whose label differs from sign of the posterior latent mean (p(y = +1) &gt; ½ exactly
   * when μ &gt; 0 for the noisy step; a mean of exactly 0 predicts +1, as H(0) = 1 in eq. 8). Only the latent mean
   * is needed: μ = m₀ + K*ᵀα, the same arithmetic as {@link Posterior#predict}'s mean (bit-identical), without its
   * predictive variances (O(n² m), most of the cost on Spam's 4,325 test points).
   */
  static double testError(Posterior p, double[][] xTest, double[] yTest) {
    Problem pr = p.problem();
    double[] mu = pr.kernel().cross(pr.x(), xTest).multTransA(p.alpha());
    for (int j = 0; j < mu.length; j++) {
      mu[j] += pr.priorMean();
    }
    int wrong = 0;
    for (int j = 0; j < mu.length; j++) {
      wrong += (mu[j] >= 0 ? 1.0 : -1.0) != yTest[j] ? 1 : 0;
    }
    return (double) wrong / mu.length;
  }

  /**
   * Chooses (ℓ, parameter) on the grid by {@code folds}-fold cross-validation (seeded split) of the held-out
   * error; a failed fit counts as error 1; ties keep the earlier grid point (length-scale-major order).
   */
  static Choice select(
      double[][] x,
      double[] y,
      List<Double> lengthscales,
      List<Double> parameters,
      String method,
      double epsilon,
      String negativeSites,
      int folds,
      long seed,
      int maxSweeps) {
    return grid(
            x,
            y,
            lengthscales,
            parameters,
            method,
            epsilon,
            negativeSites,
            folds,
            seed,
            maxSweeps,
            Methods.RepReading.DEFAULT)
        .best();
  }

  /**
   * The cross-validation errors of one method over the (ℓ, parameter) grid.
   *
   * @param lengthscales the ℓ grid
   * @param parameters   the parameter grid (just NaN for EP)
   * @param errors       errors[l][k] the mean held-out error at (ℓ_l, parameter_k); null when the grid has one
   *                     point (nothing to choose, no CV run)
   */
  record Grid(List<Double> lengthscales, List<Double> parameters, double[][] errors) {

    /** The best point overall (ties within {@link #TIE}: the earlier, length-scale-major). */
    Choice best() {
      Choice best = null;
      for (int l = 0; l < lengthscales.size(); l++) {
        Choice c = bestAt(l);
        if (best == null || lower(c.cvError(), best.cvError())) {
          best = c;
        }
      }
      return best;
    }

    /** The best parameter at length-scale index l (ties within {@link #TIE}: the earlier). */
    Choice bestAt(int l) {
      if (errors == null) {
        return new Choice(lengthscales.get(l), parameters.get(0), Double.NaN);
      }
      int k = 0;
      for (int j = 1; j < parameters.size(); j++) {
        k = lower(errors[l][j], errors[l][k]) ? j : k;
      }
      return new Choice(lengthscales.get(l), parameters.get(k), errors[l][k]);
    }
  }

  /**
   * {@link Grid} of {@code method} on (x, y) by {@code folds}-fold cross-validation (seeded split); a failed fit
   * counts as error 1.
   */
  static Grid grid(
      double[][] x,
      double[] y,
      List<Double> lengthscales,
      List<Double> parameters,
      String method,
      double epsilon,
      String negativeSites,
      int folds,
      long seed,
      int maxSweeps,
      Methods.RepReading reading) {
    List<Double> pars = method.equals("ep") ? List.of(Double.NaN) : parameters;
    if (lengthscales.size() == 1 && pars.size() == 1) {
      return new Grid(lengthscales, pars, null);
    }
    List<Split> split = Splits.kFold(x.length, folds, seed);
    double[][] errors = new double[lengthscales.size()][pars.size()];
    for (int l = 0; l < lengthscales.size(); l++) {
      for (int k = 0; k < pars.size(); k++) {
        double err = 0;
        for (Split s : split) {
          Posterior p = fit(
              rows(x, s.train()),
              rows(y, s.train()),
              lengthscales.get(l),
              method,
              pars.get(k),
              epsilon,
              negativeSites,
              maxSweeps,
              reading);
          err += p == null ? 1.0 : testError(p, rows(x, s.test()), rows(y, s.test()));
        }
        errors[l][k] = err / folds;
      }
    }
    return new Grid(lengthscales, pars, errors);
  }

  /**
   * The one length-scale shared by all methods on a split: the index l minimising the mean over the methods of
   * their best cross-validation error at ℓ_l (each method at its best parameter there); ties (within {@link #TIE})
   * keep the earlier.
   * Every grid must have the same ℓ grid; 0 when no grid was cross-validated.
   */
  static int sharedLengthscale(List<Grid> grids) {
    int n = grids.get(0).lengthscales().size();
    int best = 0;
    double bestErr = Double.POSITIVE_INFINITY;
    for (int l = 0; l < n; l++) {
      double sum = 0;
      for (Grid g : grids) {
        double e = g.bestAt(l).cvError();
        sum += Double.isNaN(e) ? 0 : e;
      }
      if (lower(sum / grids.size(), bestErr)) {
        bestErr = sum / grids.size();
        best = l;
      }
    }
    return best;
  }

  /**
   * The methods whose grids a trial of {@code method} needs, in order: those that choose the shared length-scale
   * ({@link RepMethods#SHARED_LENGTHSCALE}), then {@code method} when it is not one of them. A trial of EP, Minka's
   * Power EP or Relaxed EP needs exactly the grids it needed before the appendix C variant joined the experiments, so
   * its row is unchanged; a trial of the appendix C variant computes its own grid besides.
   */
  static List<String> gridMethods(String method) {
    List<String> out = new java.util.ArrayList<>(RepMethods.SHARED_LENGTHSCALE);
    if (!out.contains(method)) {
      out.add(method);
    }
    return List.copyOf(out);
  }

  /** The grids of {@link RepMethods#SHARED_LENGTHSCALE} among a trial's grids (ordered by {@link #gridMethods}). */
  static List<Grid> sharedGrids(List<Grid> grids) {
    return grids.subList(0, RepMethods.SHARED_LENGTHSCALE.size());
  }

  /** Cross-validation grids already computed in this JVM, by trial-unit and method (see {@link #memoAll}). */
  private static final Map<Object, FutureTask<Grid>> GRIDS = new ConcurrentHashMap<>();

  /**
   * The grids under {@code keys} (in that order), each computed once per JVM: the trials of one unit (data set,
   * split) for different methods each need every method's grid to choose the shared length-scale
   * ({@link #sharedLengthscale}), and compute each only once. A trial first computes every grid no other trial has
   * started, beginning at index {@code first} and going round, and only then waits for those another trial is
   * computing; so the trials of one unit running on several threads (each starting at its own method's grid) compute
   * its grids side by side instead of waiting on one another. Which thread computes a grid does not change it.
   *
   * <p>Under another rounding than the process default's ({@link Linalg#overridden}: the verifier's rerun under a
   * one-ulp perturbation or the other backend) every grid is computed afresh, in the same order, and not kept: the
   * memo holds grids of the default rounding only, and handing them to such a rerun hid from the verifier every
   * cross-validated choice that moves with rounding (a Diabetes EP trial's ℓ that the other OpenBLAS kernel flips
   * was reported "differs", its reruns all reusing the grids of the first).
   */
  static List<Grid> memoAll(List<?> keys, List<Supplier<Grid>> computes, int first) {
    int n = keys.size();
    if (Linalg.overridden()) {
      List<Grid> fresh = new java.util.ArrayList<>(java.util.Collections.nCopies(n, null));
      for (int j = 0; j < n; j++) {
        int i = (first + j) % n;
        fresh.set(i, computes.get(i).get());
      }
      return fresh;
    }
    List<FutureTask<Grid>> tasks =
        new java.util.ArrayList<>(java.util.Collections.nCopies(n, null));
    for (int j = 0; j < n; j++) {
      int i = (first + j) % n;
      Supplier<Grid> compute = computes.get(i);
      FutureTask<Grid> task = new FutureTask<>(compute::get);
      FutureTask<Grid> prior = GRIDS.putIfAbsent(keys.get(i), task);
      if (prior == null) {
        task.run();
        prior = task;
      }
      tasks.set(i, prior);
    }
    List<Grid> out = new java.util.ArrayList<>(n);
    for (FutureTask<Grid> t : tasks) {
      out.add(result(t));
    }
    return out;
  }

  private static Grid result(FutureTask<Grid> task) {
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    }
  }

  static double[][] rows(double[][] x, int[] idx) {
    double[][] out = new double[idx.length][];
    for (int i = 0; i < idx.length; i++) {
      out[i] = x[idx[i]];
    }
    return out;
  }

  static double[] rows(double[] y, int[] idx) {
    double[] out = new double[idx.length];
    for (int i = 0; i < idx.length; i++) {
      out[i] = y[idx[i]];
    }
    return out;
  }

  /**
   * Flips exactly round(rate·n) labels, chosen uniformly without replacement by a seeded generator; returns a new
   * array.
   */
  static double[] flip(double[] y, double rate, long seed) {
    if (!(rate >= 0 && rate <= 1)) {
      throw new IllegalArgumentException("flip rate must be in [0, 1], got " + rate);
    }
    double[] out = y.clone();
    int n = y.length;
    int k = (int) Math.round(rate * n);
    int[] idx = new int[n];
    for (int i = 0; i < n; i++) {
      idx[i] = i;
    }
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    for (int i = 0; i < k; i++) { // partial Fisher–Yates: idx[0..k) is a uniform k-subset
      int j = i + rng.nextInt(n - i);
      int t = idx[i];
      idx[i] = idx[j];
      idx[j] = t;
      out[idx[i]] = -out[idx[i]];
    }
    return out;
  }
}
