package org.approxgp.model;

import java.util.Arrays;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.SiteLoopOptions;
import org.approxgp.inference.SiteUpdate;
import org.approxgp.inference.Sites;
import org.approxgp.inference.SparsePosterior;
import org.approxgp.inference.SparseProblem;
import org.approxgp.inference.SparseSiteLoop;
import org.approxgp.kernel.Kernel;
import org.approxgp.optimize.Lbfgs;

/**
 * Learns the kernel's log-hyperparameters θ and, optionally, the inducing inputs Z of a sparse EP or Power EP model
 * by L-BFGS on the Power-EP energy with its analytic gradient ({@link SparsePosterior#logEvidenceGradient()},
 * {@link SparsePosterior#inducingGradient()}; Bui, Yan &amp; Turner 2017, §3), each evaluation warm-started from the
 * previous one's sites (an explicit argument, as in {@link GpModel}). θ is boxed by {@link Bounds#defaults(Kernel)};
 * Z is unbounded. Likelihood hyperparameters are not learned here (a likelihood that has some is refused), nor is
 * QP's energy (its fixed point is not stationary for it, so {@link SparseSiteLoop} gives it no gradient).
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
   * @param seconds wall time
   */
  public record Fit(
      SparsePosterior posterior,
      int iterations,
      int evaluations,
      boolean converged,
      String status,
      double seconds) {}

  private SparseGpModel() {}

  /**
   * Maximises the energy from {@code start}'s θ and Z.
   *
   * @param rule EP ({@code MomentMatching.ep()}) or Power EP ({@code PowerEp.of(u)})
   * @param loop the site loop's settings (its gradient is switched on here)
   * @throws IllegalArgumentException for a likelihood with hyperparameters or a rule without an energy gradient
   * @throws InferenceException when the final run fails (a failure at a trial point makes the line search back off)
   */
  public static <S> Fit fit(
      SparseProblem start, SiteUpdate<S> rule, SiteLoopOptions loop, FitOptions options) {
    long t0 = System.nanoTime();
    if (!start.problem().likelihood().hyperparameterNames().isEmpty()) {
      throw new IllegalArgumentException(
          "the sparse fit learns kernel hyperparameters and inducing inputs only; "
              + start.problem().likelihood().name() + " has hyperparameters "
              + start.problem().likelihood().hyperparameterNames());
    }
    SiteLoopOptions withGradient = loop.withGradient(true);
    Kernel k0 = start.problem().kernel();
    int nk = k0.size();
    double[][] z0 = start.z();
    int m = z0.length;
    int d = z0[0].length;
    int dim = nk + (options.learnInducing() ? m * d : 0);
    double[] x0 = new double[dim];
    System.arraycopy(k0.logHyperparameters(), 0, x0, 0, nk);
    if (options.learnInducing()) {
      for (int a = 0; a < m; a++) {
        System.arraycopy(z0[a], 0, x0, nk + a * d, d);
      }
    }
    Bounds kb = Bounds.defaults(k0);
    double[] lo = new double[dim];
    double[] hi = new double[dim];
    Arrays.fill(lo, Double.NEGATIVE_INFINITY);
    Arrays.fill(hi, Double.POSITIVE_INFINITY);
    System.arraycopy(kb.lower(), 0, lo, 0, nk);
    System.arraycopy(kb.upper(), 0, hi, 0, nk);
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
            sp = at(start, x, nk, options.learnInducing(), m, d);
          } catch (IllegalArgumentException e) {
            return Double.POSITIVE_INFINITY; // an extrapolated trial the kernel refuses
          }
          SparsePosterior post;
          try {
            runs[0]++;
            post = SparseSiteLoop.run(sp, rule, withGradient, warm[0]);
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
          if (options.learnInducing()) {
            double[][] gz = post.inducingGradient();
            for (int a = 0; a < m; a++) {
              for (int c = 0; c < d; c++) {
                grad[nk + a * d + c] = -gz[a][c];
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
        : SparseSiteLoop.run(
            at(start, r.x(), nk, options.learnInducing(), m, d), rule, withGradient, warm[0]);
    return new Fit(
        post,
        r.iterations(),
        runs[0] + (reuse ? 0 : 1),
        r.converged() && post.diagnostics().converged(),
        r.status(),
        (System.nanoTime() - t0) * 1e-9);
  }

  private static SparseProblem at(
      SparseProblem start, double[] x, int nk, boolean inducing, int m, int d) {
    Kernel k = start.problem().kernel().withLogHyperparameters(Arrays.copyOf(x, nk));
    double[][] z = start.z();
    if (inducing) {
      for (int a = 0; a < m; a++) {
        System.arraycopy(x, nk + a * d, z[a], 0, d);
      }
    }
    return new SparseProblem(start.problem().withKernel(k), z);
  }
}
