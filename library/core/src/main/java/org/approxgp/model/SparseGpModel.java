package org.approxgp.model;

import java.util.Arrays;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Problem;
import org.approxgp.inference.SiteBlocks;
import org.approxgp.inference.SiteLoopOptions;
import org.approxgp.inference.SiteUpdate;
import org.approxgp.inference.Sites;
import org.approxgp.inference.SparsePosterior;
import org.approxgp.inference.SparseProblem;
import org.approxgp.inference.SparseSiteLoop;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.optimize.Lbfgs;

/**
 * Learns the kernel's log-hyperparameters θ and, optionally, the inducing inputs Z of a sparse EP or Power EP model
 * by L-BFGS on the Power-EP energy with its analytic gradient ({@link SparsePosterior#logEvidenceGradient()},
 * {@link SparsePosterior#inducingGradient()}; Bui, Yan &amp; Turner 2017, §3), each evaluation warm-started from the
 * previous one's sites (an explicit argument, as in {@link GpModel}). Likelihood log-hyperparameters (a Gaussian
 * noise variance, a step's ε) are learned with them by central differences of the energy with step
 * {@link GpModel#LIKELIHOOD_STEP}, each side warm-started from the centre's sites, as {@link GpModel} does. θ is boxed
 * by {@link Bounds#defaults(Kernel, org.approxgp.likelihood.Likelihood)}; Z is unbounded. QP's energy is not fitted
 * here (its fixed point is not stationary for it, so {@link SparseSiteLoop} gives it no gradient).
 */
public final class SparseGpModel {

  /**
   * @param learnInducing whether Z is learned with θ (false: θ only, Z fixed)
   * @param settings L-BFGS settings
   */
  public record FitOptions(boolean learnInducing, Lbfgs.Settings settings) {
    public FitOptions {
      if (settings == null) {
        throw new IllegalArgumentException("L-BFGS settings must not be null");
      }
    }

    /** θ and Z, the QP paper's L-BFGS settings. */
    public static FitOptions hyperparametersAndInducing() {
      return new FitOptions(true, Lbfgs.Settings.paper());
    }

    /** θ only, the QP paper's L-BFGS settings. */
    public static FitOptions hyperparameters() {
      return new FitOptions(false, Lbfgs.Settings.paper());
    }
  }

  /**
   * A fitted sparse model.
   *
   * @param posterior the posterior at the final θ and Z (its problem holds both)
   * @param iterations L-BFGS iterations
   * @param evaluations site-loop runs
   * @param converged L-BFGS's verdict and the final run's
   * @param status L-BFGS's status
   * @param activeBounds names of the hyperparameters (kernel's, then likelihood's) that ended at a bound
   * @param seconds wall time
   */
  public record Fit(
      SparsePosterior posterior,
      int iterations,
      int evaluations,
      boolean converged,
      String status,
      java.util.List<String> activeBounds,
      double seconds) {}

  private SparseGpModel() {}

  /**
   * Maximises the energy from {@code start}'s θ and Z.
   *
   * @param rule EP ({@code MomentMatching.ep()}) or Power EP ({@code PowerEp.of(u)})
   * @param loop the site loop's settings (its gradient is switched on here)
   * @throws IllegalArgumentException for a rule without an energy gradient (QP)
   * @throws InferenceException when the final run fails (a failure at a trial point makes the line search back off)
   */
  public static <S> Fit fit(
      SparseProblem start, SiteUpdate<S> rule, SiteLoopOptions loop, FitOptions options) {
    return fit(start, rule, loop, options, null);
  }

  /**
   * {@link #fit(SparseProblem, SiteUpdate, SiteLoopOptions, FitOptions)} with the parallel schedule's blocks of
   * training rows, and the evidence gradient's, on {@code blocks} ({@link SiteBlocks}; null: this JVM), for
   * {@code loop} with the parallel schedule.
   *
   * @throws IllegalArgumentException also for blocks with the sequential schedule
   */
  public static <S> Fit fit(
      SparseProblem start,
      SiteUpdate<S> rule,
      SiteLoopOptions loop,
      FitOptions options,
      SiteBlocks blocks) {
    long t0 = System.nanoTime();
    SiteLoopOptions withGradient = loop.withGradient(true);
    Kernel k0 = start.problem().kernel();
    Likelihood l0 = start.problem().likelihood();
    int nk = k0.size();
    int nl = l0.hyperparameterNames().size();
    double[][] z0 = start.z();
    int m = z0.length;
    int d = z0[0].length;
    // x = (kernel log θ, likelihood log θ, Z row by row when learned)
    Layout lay = new Layout(nk, nl, options.learnInducing() ? m : 0, d);
    double[] x0 = new double[lay.dim()];
    System.arraycopy(k0.logHyperparameters(), 0, x0, 0, nk);
    System.arraycopy(l0.logHyperparameters(), 0, x0, nk, nl);
    for (int a = 0; a < lay.m(); a++) {
      System.arraycopy(z0[a], 0, x0, lay.z0() + a * d, d);
    }
    Bounds box = Bounds.defaults(k0, l0);
    double[] lo = new double[lay.dim()];
    double[] hi = new double[lay.dim()];
    Arrays.fill(lo, Double.NEGATIVE_INFINITY);
    Arrays.fill(hi, Double.POSITIVE_INFINITY);
    System.arraycopy(box.lower(), 0, lo, 0, nk + nl);
    System.arraycopy(box.upper(), 0, hi, 0, nk + nl);
    Sites[] warm = {null};
    SparsePosterior[] best = {null};
    double[][] bestX = {null};
    int[] runs = {0};
    Lbfgs.Result r = Lbfgs.minimize(
        (x, grad) -> {
          for (double v : x) {
            if (!Double.isFinite(v)) {
              return Double.POSITIVE_INFINITY;
            }
          }
          SparseProblem sp;
          try {
            sp = at(start, x, lay);
          } catch (IllegalArgumentException e) {
            return Double
                .POSITIVE_INFINITY; // an extrapolated trial the kernel or likelihood refuses
          }
          SparsePosterior post;
          double[] gl = new double[nl];
          try {
            runs[0]++;
            post = SparseSiteLoop.run(sp, rule, withGradient, warm[0], blocks);
            for (int j = 0; j < nl; j++) {
              gl[j] =
                  likelihoodDerivative(sp, rule, loop.withGradient(false), post, j, runs, blocks);
            }
          } catch (InferenceException e) {
            return Double.POSITIVE_INFINITY;
          }
          if (!Double.isFinite(post.logEvidence())) {
            return Double.POSITIVE_INFINITY;
          }
          warm[0] = post.sites();
          if (best[0] == null || post.logEvidence() > best[0].logEvidence()) {
            best[0] = post;
            bestX[0] = x.clone();
          }
          double[] g = post.logEvidenceGradient();
          for (int j = 0; j < nk; j++) {
            grad[j] = -g[j];
          }
          for (int j = 0; j < nl; j++) {
            grad[nk + j] = -gl[j];
          }
          if (lay.m() > 0) {
            double[][] gz = post.inducingGradient();
            for (int a = 0; a < m; a++) {
              for (int c = 0; c < d; c++) {
                grad[lay.z0() + a * d + c] = -gz[a][c];
              }
            }
          }
          return -post.logEvidence();
        },
        x0,
        lo,
        hi,
        options.settings());
    boolean reuse = best[0] != null && Arrays.equals(bestX[0], r.x());
    SparsePosterior post = reuse
        ? best[0]
        : SparseSiteLoop.run(at(start, r.x(), lay), rule, withGradient, warm[0], blocks);
    java.util.List<String> names = new java.util.ArrayList<>(k0.hyperparameterNames());
    names.addAll(l0.hyperparameterNames());
    java.util.List<String> active = new java.util.ArrayList<>();
    for (int j : r.activeBounds()) {
      if (j < nk + nl) {
        active.add(names.get(j));
      }
    }
    return new Fit(
        post,
        r.iterations(),
        runs[0] + (reuse ? 0 : 1),
        r.converged() && post.diagnostics().converged(),
        r.status(),
        java.util.List.copyOf(active),
        (System.nanoTime() - t0) * 1e-9);
  }

  /** Where the parts of the optimiser's vector sit: nk kernel, nl likelihood, then m rows of d inducing inputs. */
  private record Layout(int nk, int nl, int m, int d) {
    int z0() {
      return nk + nl;
    }

    int dim() {
      return nk + nl + m * d;
    }
  }

  private static SparseProblem at(SparseProblem start, double[] x, Layout lay) {
    Problem p = start.problem();
    Kernel k = p.kernel().withLogHyperparameters(Arrays.copyOf(x, lay.nk()));
    Likelihood lik = p.likelihood();
    if (lay.nl() > 0) {
      lik = lik.withLogHyperparameters(Arrays.copyOfRange(x, lay.nk(), lay.z0()));
    }
    double[][] z = start.z();
    for (int a = 0; a < lay.m(); a++) {
      System.arraycopy(x, lay.z0() + a * lay.d(), z[a], 0, lay.d());
    }
    return new SparseProblem(new Problem(k, p.x(), p.y(), lik, p.priorMean()), z);
  }

  /**
   * ∂F/∂(j-th likelihood log-hyperparameter) by central differences with step {@link GpModel#LIKELIHOOD_STEP}, both
   * sides warm-started from the centre's sites; a non-finite side is an {@link InferenceException}.
   */
  private static <S> double likelihoodDerivative(
      SparseProblem sp,
      SiteUpdate<S> rule,
      SiteLoopOptions loop,
      SparsePosterior centre,
      int j,
      int[] runs,
      SiteBlocks blocks) {
    Likelihood lik = sp.problem().likelihood();
    double[] t = lik.logHyperparameters();
    double[] side = new double[2];
    for (int s = 0; s < 2; s++) {
      double[] ts = t.clone();
      ts[j] += s == 0 ? GpModel.LIKELIHOOD_STEP : -GpModel.LIKELIHOOD_STEP;
      runs[0]++;
      SparsePosterior q = SparseSiteLoop.run(
          sp.withProblem(sp.problem().withLikelihood(lik.withLogHyperparameters(ts))),
          rule,
          loop,
          centre.sites(),
          blocks);
      if (!Double.isFinite(q.logEvidence())) {
        throw new InferenceException(
            "likelihood gradient: the energy at " + lik.hyperparameterNames().get(j)
                + (s == 0 ? " + h" : " - h") + " is " + q.logEvidence(),
            centre.diagnostics(),
            null);
      }
      side[s] = q.logEvidence();
    }
    return (side[0] - side[1]) / (2 * GpModel.LIKELIHOOD_STEP);
  }
}
