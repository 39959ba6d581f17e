package org.approxgp.model;

import org.approxgp.inference.Ep;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Sites;

/** An approximate-inference method: problem + optional warm start → posterior. */
public interface InferenceMethod {

  /** "ep", "qp", "laplace", "vb". */
  String name();

  /** Runs inference; {@code warmStart} may be null (cold start) and may be ignored by a method. */
  Posterior infer(Problem problem, Sites warmStart);

  /** EP with the given options (the projection in the options decides EP vs QP). */
  static InferenceMethod ep(Ep.Options options) {
    return new InferenceMethod() {
      @Override
      public String name() {
        return options.projection().name().equals("kl") ? "ep" : options.projection().name().equals("w2") ? "qp"
            : "ep-" + options.projection().name();
      }

      @Override
      public Posterior infer(Problem problem, Sites warmStart) {
        return Ep.infer(problem, options, warmStart);
      }
    };
  }

  /** Laplace's method (warm-started from the previous sites). */
  static InferenceMethod laplace(org.approxgp.inference.Laplace.Options options) {
    return new InferenceMethod() {
      @Override
      public String name() {
        return "laplace";
      }

      @Override
      public Posterior infer(Problem problem, Sites warmStart) {
        return org.approxgp.inference.Laplace.infer(problem, options, warmStart);
      }
    };
  }

  /** Variational Gaussian approximation (Opper &amp; Archambeau 2009); the objective is the ELBO. */
  static InferenceMethod vb(org.approxgp.inference.Vb.Options options) {
    return new InferenceMethod() {
      @Override
      public String name() {
        return "vb";
      }

      @Override
      public Posterior infer(Problem problem, Sites warmStart) {
        return org.approxgp.inference.Vb.infer(problem, options, warmStart);
      }
    };
  }

  /**
   * Quantile Propagation: the EP loop with the W2 projection (table-backed for probit). Its objective
   * is the EP-form evidence at QP's sites (QP paper eq. 2), as in the paper.
   */
  static InferenceMethod qp(Ep.Options options) {
    return new InferenceMethod() {
      @Override
      public String name() {
        return "qp";
      }

      @Override
      public Posterior infer(Problem problem, Sites warmStart) {
        return org.approxgp.inference.Qp.infer(problem, options, warmStart);
      }
    };
  }

  /** EP with default options. */
  static InferenceMethod ep() {
    return ep(Ep.Options.defaults());
  }
}
