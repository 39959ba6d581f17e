package org.approxgp.model;

import java.util.ArrayList;
import java.util.List;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Sites;
import org.approxgp.kernel.Kernel;
import org.approxgp.optimize.Lbfgs;

/**
 * Fits a latent GP: optionally maximises the method's log evidence (ELBO for VB) over the kernel's
 * log-hyperparameters by L-BFGS with analytic gradients, warm-starting each inference from the
 * previous evaluation's sites (an explicit argument, not hidden state), then returns the posterior
 * at the optimum.
 */
public final class GpModel {

  /**
   * @param optimize whether to learn the hyperparameters (the kernel's are the starting point)
   * @param settings L-BFGS settings (default: the QP paper's)
   * @param bounds box on θ, or null for none
   */
  public record FitOptions(boolean optimize, Lbfgs.Settings settings, Bounds bounds) {

    /** Optimise with the QP paper's settings and the default bounds for the kernel. */
    public static FitOptions optimize(Kernel k) {
      return new FitOptions(true, Lbfgs.Settings.paper(), Bounds.defaults(k));
    }

    /** Keep the given hyperparameters. */
    public static FitOptions fixed() {
      return new FitOptions(false, Lbfgs.Settings.paper(), null);
    }
  }

  private GpModel() {}

  /**
   * Fits {@code problem}'s kernel hyperparameters (or keeps them) and returns the posterior.
   *
   * <p>Failures: an {@link InferenceException} (numerical failure) at a trial θ makes the objective +∞
   * there, so the line search backs off; at the final θ, or without optimisation, it propagates. Any
   * other exception — in particular an {@link IllegalArgumentException}, a programming error —
   * propagates at once.
   */
  public static FittedGp fit(Problem problem, InferenceMethod method, FitOptions options) {
    long t0 = System.nanoTime();
    if (!options.optimize()) {
      Posterior post = method.infer(problem, null);
      return new FittedGp(post, method.name(), false, 0, 1, post.diagnostics().converged(), "", List.of(),
          (System.nanoTime() - t0) * 1e-9);
    }
    Kernel k0 = problem.kernel();
    Sites[] warm = {null};
    // the best posterior evaluated: usually the optimiser's answer, which then needs no further inference
    Posterior[] best = {null};
    double[][] bestTheta = {null};
    Lbfgs.Result r = Lbfgs.minimize((theta, grad) -> {
      if (!allFinite(theta)) {
        // the line search extrapolated from a backed-off (infinite) value to a non-finite trial point
        return Double.POSITIVE_INFINITY;
      }
      Problem p = problem.withKernel(k0.withLogHyperparameters(theta));
      Posterior post;
      try {
        post = method.infer(p, warm[0]);
      } catch (InferenceException e) {
        // a numerical failure at this θ: the line search backs off. Anything else (an
        // IllegalArgumentException is a programming error) propagates and ends the fit.
        return Double.POSITIVE_INFINITY;
      }
      double[] g = post.logEvidenceGradient();
      if (g == null) {
        throw new IllegalArgumentException("inference method " + method.name() + " returned no log-evidence "
            + "gradient; fitting needs one (e.g. Ep.Options.withGradient(true))");
      }
      if (!Double.isFinite(post.logEvidence()) || !allFinite(g)) {
        return Double.POSITIVE_INFINITY;
      }
      warm[0] = post.sites();
      if (best[0] == null || post.logEvidence() > best[0].logEvidence()) {
        best[0] = post;
        bestTheta[0] = theta.clone();
      }
      for (int j = 0; j < g.length; j++) {
        grad[j] = -g[j];
      }
      return -post.logEvidence();
    }, k0.logHyperparameters(), options.bounds() == null ? null : options.bounds().lower(),
        options.bounds() == null ? null : options.bounds().upper(), options.settings());
    boolean reuse = best[0] != null && java.util.Arrays.equals(bestTheta[0], r.x());
    Posterior post = reuse ? best[0] : method.infer(problem.withKernel(k0.withLogHyperparameters(r.x())), warm[0]);
    List<String> names = k0.hyperparameterNames();
    List<String> active = new ArrayList<>();
    for (int j : r.activeBounds()) {
      active.add(names.get(j));
    }
    return new FittedGp(post, method.name(), true, r.iterations(), r.evaluations() + (reuse ? 0 : 1),
        r.converged() && post.diagnostics().converged(), r.status(), List.copyOf(active),
        (System.nanoTime() - t0) * 1e-9);
  }

  private static boolean allFinite(double[] v) {
    for (double x : v) {
      if (!Double.isFinite(x)) {
        return false;
      }
    }
    return true;
  }
}
