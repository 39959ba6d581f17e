package org.approxgp.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.approxgp.projection.QpTable;
import org.approxgp.projection.QpTables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code approxgp qp-table build [probit|probit-wide]}: rebuild a shipped QP lookup table (deterministic to the
 * bit).
 */
@Command(
    name = "qp-table",
    mixinStandardHelpOptions = true,
    description = "QP lookup tables.",
    subcommands = QpTableCommand.Build.class)
final class QpTableCommand implements Runnable {
  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getErr());
  }

  @Command(
      name = "build",
      mixinStandardHelpOptions = true,
      description =
          "Build a probit σ_QP/σ_EP table shipped in the JAR (probit: μ ∈ [−10, 10], σ ∈ [0.1, 10];"
              + " probit-wide: z = μ/√(1 + σ²) ∈ [−10, 9], σ ∈ [0.5, 200]) and write it to --out.")
  static final class Build implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--out",
        required = true,
        paramLabel = "FILE",
        description = "where to write the table")
    Path out;

    @Parameters(
        arity = "0..1",
        paramLabel = "LIKELIHOOD",
        defaultValue = "probit",
        description = "probit (default) or probit-wide")
    String likelihood;

    @Override
    public Integer call() throws IOException {
      if (!likelihood.equals("probit") && !likelihood.equals("probit-wide")) {
        throw CliException.badInput(
            "qp-table build: the tables are probit and probit-wide, got '" + likelihood + "'");
      }
      AtomicFiles.checkWritable(out, "--out");
      long t0 = System.nanoTime();
      Path tmp = AtomicFiles.tempSibling(out);
      try {
        QpTable t =
            likelihood.equals("probit") ? QpTables.buildProbit(tmp) : QpTables.buildProbitWide(tmp);
        AtomicFiles.commit(tmp, out);
        spec.commandLine()
            .getErr()
            .printf(
                java.util.Locale.ROOT,
                "qp-table: %d x %d grid written to %s (%d bytes) in %.1f s%n",
                t.muCount(),
                t.logSigmaCount(),
                out,
                Files.size(out),
                (System.nanoTime() - t0) * 1e-9);
      } finally {
        Files.deleteIfExists(tmp);
      }
      return 0;
    }
  }
}
