package org.approxgp.cli;

import java.util.List;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.Probit;

/** Likelihood names on the command line. */
final class Likelihoods {
  private Likelihoods() {}

  static List<String> names() {
    return List.of("probit", "poisson-square", "noisy-step");
  }

  /** A likelihood without parameters (noisy-step needs {@link #byName(String, Double)}). */
  static Likelihood byName(String name) {
    return byName(name, null);
  }

  /**
   * The likelihood named on the command line; {@code epsilon} is {@code --epsilon}, required by noisy-step
   * (its label-flip probability, in (0, 0.5)) and rejected by the others.
   */
  static Likelihood byName(String name, Double epsilon) {
    Likelihood lik = switch (name) {
      case "probit" -> Probit.get();
      case "poisson-square" -> org.approxgp.likelihood.PoissonSquareLink.get();
      case "noisy-step" -> {
        if (epsilon == null) {
          throw CliException.badInput("--likelihood noisy-step needs --epsilon E (label-flip probability in (0, 0.5))");
        }
        if (!(epsilon > 0 && epsilon < 0.5)) {
          throw CliException.badInput("--epsilon must be in (0, 0.5), got " + epsilon);
        }
        yield NoisyStep.of(epsilon);
      }
      default -> throw CliException.badInput("--likelihood: unknown '" + name + "' (known: "
          + String.join(", ", names()) + ")");
    };
    if (epsilon != null && !(lik instanceof NoisyStep)) {
      throw CliException.badInput("--epsilon applies to --likelihood noisy-step only, not to " + name);
    }
    return lik;
  }
}
