package org.approxgp.cli;

import java.util.List;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.Probit;

/** Likelihood names on the command line. */
final class Likelihoods {
  private Likelihoods() {}

  static List<String> names() {
    return List.of("probit", "poisson-square");
  }

  static Likelihood byName(String name) {
    return switch (name) {
      case "probit" -> Probit.get();
      case "poisson-square" -> org.approxgp.likelihood.PoissonSquareLink.get();
      default -> throw CliException.badInput("--likelihood: unknown '" + name + "' (known: " + String.join(", ", names()) + ")");
    };
  }
}
