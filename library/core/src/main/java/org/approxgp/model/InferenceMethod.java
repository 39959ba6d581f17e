package org.approxgp.model;

import java.util.function.BiFunction;
import org.approxgp.inference.Ep;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Laplace;
import org.approxgp.inference.LaplaceOptions;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Qp;
import org.approxgp.inference.SiteLoop;
import org.approxgp.inference.SiteLoopOptions;
import org.approxgp.inference.SiteUpdate;
import org.approxgp.inference.Sites;
import org.approxgp.inference.Vb;
import org.approxgp.inference.VbOptions;

/** An approximate-inference method: problem + optional warm start → posterior. */
public interface InferenceMethod {

  /** "ep", "qp", "laplace", "vb". */
  String name();

  /** Runs inference; {@code warmStart} may be null (cold start) and may be ignored by a method. */
  Posterior infer(Problem problem, Sites warmStart);

  /** A method from its name and its inference function. */
  static InferenceMethod of(String name, BiFunction<Problem, Sites, Posterior> infer) {
    return new InferenceMethod() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Posterior infer(Problem problem, Sites warmStart) {
        return infer.apply(problem, warmStart);
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }

  /**
   * EP with the given options. The method is the one the options' projection defines
   * ({@link org.approxgp.inference.MomentMatching#forProjection}: KL → "ep", W2 → "qp", Lp → "lp(p=…)"),
   * and is named by that rule, as are its posteriors' diagnostics.
   */
  static InferenceMethod ep(Ep.Options options) {
    return of(options.siteUpdate().name(), (pr, w) -> Ep.infer(pr, options, w));
  }

  /** Any site rule (EP, QP, Lp, Power EP, Relaxed EP) in the site loop, named by the rule. */
  static InferenceMethod siteLoop(SiteUpdate<?> update, SiteLoopOptions options) {
    return of(update.name(), (pr, w) -> SiteLoop.run(pr, update, options, w));
  }

  /**
   * Quantile Propagation: the EP loop with the W2 projection (table-backed for probit). Its objective
   * is the EP-form evidence at QP's sites (QP paper eq. 2), as in the paper.
   */
  static InferenceMethod qp(Ep.Options options) {
    String name = Qp.siteUpdate(options).name();
    return of(name, (pr, w) -> Qp.infer(pr, options, w));
  }

  /**
   * {@code inner} with its log-evidence gradient replaced by central differences in the kernel's
   * log-hyperparameters, (E(θ + h e_j) − E(θ − h e_j))/(2h), each side warm-started from the centre's
   * sites. For methods whose analytic gradient is not the gradient of their objective: QP's EP-form
   * gradient (R&amp;W 5.27) holds only at an EP fixed point, not at QP's. Costs 2·dim(θ) extra
   * warm-started inferences per evaluation; {@code inner} should stop tightly, so that its
   * evidence's round-off stays far below h times the gradient.
   *
   * <p>Failures propagate as the inner method's do: a numerical failure of the centre or of a side run
   * is an {@link InferenceException} (a side run's message names the coordinate), so that
   * {@link GpModel#fit} backs off; a non-finite side evidence is one too, never a NaN gradient; anything
   * else (e.g. an {@link IllegalArgumentException}) propagates unchanged.
   */
  static InferenceMethod withNumericalGradient(InferenceMethod inner, double h) {
    if (!(h > 0)) {
      throw new IllegalArgumentException("step must be positive, got " + h);
    }
    return of(inner.name(), (pr, w) -> {
      Posterior centre = inner.infer(pr, w);
      double[] theta = pr.kernel().logHyperparameters();
      double[] g = new double[theta.length];
      for (int j = 0; j < theta.length; j++) {
        double[] tp = theta.clone();
        double[] tm = theta.clone();
        tp[j] += h;
        tm[j] -= h;
        double fp = side(inner, pr, tp, centre, j, "+");
        double fm = side(inner, pr, tm, centre, j, "-");
        g[j] = (fp - fm) / (2 * h);
      }
      return centre.withLogEvidenceGradient(g);
    });
  }

  /**
   * The log evidence at θ ± h eⱼ, warm-started from the centre's sites. A numerical failure there is an
   * {@link InferenceException} (the side run's, with its diagnostics, named in the message); a non-finite
   * evidence is one too, carrying the centre's diagnostics. Anything else propagates unchanged.
   */
  private static double side(
      InferenceMethod inner, Problem pr, double[] theta, Posterior centre, int j, String sign) {
    Posterior p;
    try {
      p = inner.infer(pr.withKernel(pr.kernel().withLogHyperparameters(theta)), centre.sites());
    } catch (InferenceException e) {
      throw new InferenceException(
          "numerical gradient: inference at θ" + j + " " + sign + " h failed: " + e.getMessage(),
          e.diagnostics(),
          e);
    }
    if (!Double.isFinite(p.logEvidence())) {
      throw new InferenceException(
          "numerical gradient: log evidence at θ" + j + " " + sign + " h is " + p.logEvidence(),
          centre.diagnostics(),
          null);
    }
    return p.logEvidence();
  }

  /** Laplace's method (warm-started from the previous sites). */
  static InferenceMethod laplace(LaplaceOptions options) {
    return of("laplace", (pr, w) -> Laplace.infer(pr, options, w));
  }

  /** Variational Gaussian approximation (Opper &amp; Archambeau 2009); the objective is the ELBO. */
  static InferenceMethod vb(VbOptions options) {
    return of("vb", (pr, w) -> Vb.infer(pr, options, w));
  }

  /** EP with default options. */
  static InferenceMethod ep() {
    return ep(Ep.Options.defaults());
  }
}
