package org.approxgp.cli;

import java.util.Arrays;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.Linear;
import org.approxgp.kernel.SquaredExponential;
import picocli.CommandLine.Option;

/** The kernel and its starting hyperparameters as flags, shared by {@code fit} and {@code compare}. */
final class KernelOptions {
  @Option(
      names = "--kernel",
      defaultValue = "se-iso",
      description = "se-iso (default), se-ard, linear")
  String kernel;

  @Option(
      names = "--lengthscale",
      paramLabel = "L",
      description = "one length-scale (se-iso; se-ard: all inputs)")
  Double lengthscale;

  @Option(
      names = "--lengthscales",
      split = ",",
      paramLabel = "L1,L2,...",
      description = "se-ard: one per feature")
  double[] lengthscales;

  @Option(
      names = "--signal-variance",
      defaultValue = "1.0",
      paramLabel = "S",
      description = "signal variance (default ${DEFAULT-VALUE})")
  double signalVariance;

  /**
   * The kernel named by {@code --kernel} with {@code --lengthscale}/{@code --lengthscales} and
   * {@code --signal-variance} for {@code d} features, each value checked once (bad input: one line, exit 2).
   */
  Kernel kernel(int d) {
    if (lengthscale != null && lengthscales != null) {
      throw CliException.badInput("give --lengthscale or --lengthscales, not both");
    }
    if (!(signalVariance > 0) || !Double.isFinite(signalVariance)) {
      throw CliException.badInput("--signal-variance must be positive, got " + signalVariance);
    }
    double l = lengthscale == null ? 1.0 : lengthscale;
    if (!(l > 0) || !Double.isFinite(l)) {
      throw CliException.badInput("--lengthscale must be positive, got " + l);
    }
    switch (kernel) {
      case "se-iso":
        if (lengthscales != null) {
          throw CliException.badInput(
              "--lengthscales is for se-ard; use --lengthscale with se-iso");
        }
        return SquaredExponential.iso(l, signalVariance);
      case "se-ard":
        double[] ls;
        if (lengthscales != null) {
          if (lengthscales.length != d) {
            throw CliException.badInput("--lengthscales has " + lengthscales.length
                + " values but TRAIN has " + d + " features");
          }
          ls = lengthscales.clone();
        } else {
          ls = new double[d];
          Arrays.fill(ls, l);
        }
        for (double v : ls) {
          if (!(v > 0) || !Double.isFinite(v)) {
            throw CliException.badInput("--lengthscales must be positive, got " + v);
          }
        }
        return SquaredExponential.ard(ls, signalVariance);
      case "linear":
        if (lengthscale != null || lengthscales != null) {
          throw CliException.badInput("the linear kernel has no length-scale");
        }
        return Linear.of(signalVariance);
      default:
        throw CliException.badInput(
            "--kernel: unknown '" + kernel + "' (known: se-iso, se-ard, linear)");
    }
  }
}
