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
    if (!names().contains(name)) {
      throw CliException.badInput("--likelihood: unknown '" + name + "' (known: " + String.join(", ", names())
          + (name.equals("gaussian") ? "; gaussian is for approxgp compare, regression is approxgp regress)" : ")"));
    }
    return byName(name, epsilon, null);
  }

  /** The names {@link #byName(String, Double, Double)} accepts: {@link #names()} and gaussian. */
  static List<String> namesWithGaussian() {
    return List.of("probit", "poisson-square", "noisy-step", "gaussian");
  }

  /**
   * {@link #byName(String, Double)}, also accepting "gaussian" with {@code noiseVariance} σ² &gt; 0 (required by
   * it, rejected by the others).
   */
  static Likelihood byName(String name, Double epsilon, Double noiseVariance) {
    if (noiseVariance != null && !name.equals("gaussian")) {
      throw CliException.badInput("--noise-variance applies to --likelihood gaussian only, not to " + name);
    }
    Likelihood lik = switch (name) {
      case "gaussian" -> {
        if (noiseVariance == null) {
          throw CliException.badInput("--likelihood gaussian needs --noise-variance S2 (the noise variance, > 0)");
        }
        if (!(noiseVariance > 0) || !Double.isFinite(noiseVariance)) {
          throw CliException.badInput("--noise-variance must be positive and finite, got " + noiseVariance);
        }
        yield org.approxgp.likelihood.Gaussian.of(noiseVariance);
      }
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
          + String.join(", ", namesWithGaussian()) + ")");
    };
    if (epsilon != null && !(lik instanceof NoisyStep)) {
      throw CliException.badInput("--epsilon applies to --likelihood noisy-step only, not to " + name);
    }
    return lik;
  }
}
