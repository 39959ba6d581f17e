package org.approxgp.model;

import java.util.List;
import org.approxgp.inference.Ep;

/** Inference methods by name, as the command line and notebooks select them. */
public final class Methods {
  private Methods() {}

  /** Names accepted by {@link #byName}. */
  public static List<String> names() {
    return List.of("ep", "qp", "laplace", "vb");
  }

  /**
   * The method called {@code name} with its default options.
   *
   * @throws IllegalArgumentException for an unknown name (the message lists the known ones)
   */
  public static InferenceMethod byName(String name) {
    return switch (name) {
      case "ep" -> InferenceMethod.ep(Ep.Options.defaults());
      // QP's analytic (EP-form) gradient is not the gradient of its objective; L-BFGS's line search
      // rejects its first step. Central differences (h = 1e-4 in log θ) make the optimisation exact.
      case "qp" -> InferenceMethod.withNumericalGradient(InferenceMethod.qp(Ep.Options.defaults()), 1e-4);
      case "laplace" -> InferenceMethod.laplace(org.approxgp.inference.Laplace.Options.defaults());
      case "vb" -> InferenceMethod.vb(org.approxgp.inference.Vb.Options.defaults());
      default -> throw new IllegalArgumentException("unknown inference method '" + name + "'; known: " + names());
    };
  }
}
