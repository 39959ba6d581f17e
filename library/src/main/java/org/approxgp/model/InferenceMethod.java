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

  /** EP with default options. */
  static InferenceMethod ep() {
    return ep(Ep.Options.defaults());
  }
}
