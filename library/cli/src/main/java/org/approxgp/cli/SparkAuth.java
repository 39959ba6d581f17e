package org.approxgp.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --spark-secret-file FILE}: turns on Spark's authentication for {@code --engine spark}. The driver and
 * every executor then prove knowledge of the shared secret on each RPC connection ({@code spark.authenticate},
 * {@code spark.authenticate.secret}, set as system properties, which a new {@code SparkConf} reads). The secret
 * is read from a file, not taken on the command line, where other users of the machine could see it; a
 * standalone cluster's master and workers need the same two settings in their {@code spark-defaults.conf}.
 */
final class SparkAuth {

  @Option(
      names = "--spark-secret-file",
      paramLabel = "FILE",
      description =
          "--engine spark: turn on Spark's authentication (spark.authenticate) with the shared secret"
              + " in FILE (its first line); the cluster must be started with the same secret")
  Path secretFile;

  /**
   * Sets Spark's authentication properties when a secret file was given.
   *
   * @param spark whether the command runs on Spark
   */
  void apply(boolean spark) {
    if (secretFile == null) {
      return;
    }
    if (!spark) {
      throw CliException.badInput("--spark-secret-file is for --engine spark");
    }
    String secret;
    try {
      secret = Files.readAllLines(secretFile, StandardCharsets.UTF_8).stream()
          .findFirst()
          .orElse("")
          .strip();
    } catch (IOException | java.io.UncheckedIOException e) {
      throw CliException.badInput("--spark-secret-file " + secretFile + ": cannot read it ("
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")");
    }
    if (secret.isEmpty()) {
      throw CliException.badInput(
          "--spark-secret-file " + secretFile + ": its first line is empty");
    }
    System.setProperty("spark.authenticate", "true");
    System.setProperty("spark.authenticate.secret", secret);
  }
}
