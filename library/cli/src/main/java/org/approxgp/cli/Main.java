package org.approxgp.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code bin/approxgp}. Exit codes: 0 success, 2 bad input or usage, 1 a computation
 * that failed. Every failure is exactly one line on standard error: a data error names the file, row
 * and column; an option error names the option (usage errors end with a pointer to {@code --help}
 * instead of printing the whole usage text). Outputs are checked before any work (writable, not one
 * of the inputs) and written all-or-nothing (see {@link AtomicFiles}), so a failed run creates no
 * file and leaves an existing output unchanged; an output that would replace a read-only file or a results
 * store's file is refused. A store that holds a line that is not a row is refused (exit 2; {@code --repair}
 * quarantines such lines), a locked one too (exit 1), and a file-system failure is one line (exit 1). Only an
 * internal error (a bug) prints a stack trace.
 */
@Command(
    name = "approxgp",
    mixinStandardHelpOptions = true,
    version = "approxgp 0.1.0",
    description = "Approximate inference for Gaussian-process models.",
    subcommands = {
      FitCommand.class,
      CompareCommand.class,
      RegressCommand.class,
      TiltedCommand.class,
      QpTableCommand.class,
      CoalCommand.class,
      RunCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {

  @Override
  public void run() {
    new CommandLine(this).usage(System.err);
  }

  /** Runs the command line and returns the exit code (for tests). */
  public static int run(String... args) {
    return run(new java.io.PrintWriter(System.err, true), args);
  }

  /** Runs the command line with messages to {@code err}; returns the exit code. */
  public static int run(java.io.PrintWriter err, String... args) {
    CommandLine cl = new CommandLine(new Main());
    cl.setErr(err);
    if (args.length == 0) {
      cl.usage(err); // no command is a usage error, as git's: the usage, exit 2
      return 2;
    }
    // usage errors (unknown option, missing required option, unparsable value): one line, exit 2
    cl.setParameterExceptionHandler((ex, a) -> {
      CommandLine cmd = ex.getCommandLine();
      String name = cmd.getCommandSpec().qualifiedName(" ");
      cmd.getErr()
          .println(name + ": "
              + ex.getMessage().replace('\n', ' ').replace('\r', ' ').strip() + " (see " + name
              + " --help)");
      return 2;
    });
    cl.setExecutionExceptionHandler((ex, cmd, parse) -> {
      if (ex instanceof CliException ce) {
        cmd.getErr().println("approxgp: " + oneLine(ce.getMessage()));
        return ce.exitCode();
      }
      if (ex instanceof org.approxgp.experiment.StoreCorruptException
          || ex instanceof org.approxgp.experiment.Engines.EngineUnavailableException
          || ex instanceof org.approxgp.experiment.ResultsLockedException) {
        cmd.getErr().println("approxgp: " + oneLine(ex.getMessage()));
        return ex instanceof org.approxgp.experiment.ResultsLockedException ? 1 : 2;
      }
      if (ex instanceof org.approxgp.experiment.MissingTrialsException) {
        // a stored-only run (APPROXGP_STORED_ONLY) whose store lacks trials: the results are
        // incomplete
        cmd.getErr().println("approxgp: " + oneLine(ex.getMessage()));
        return 1;
      }
      if (ex instanceof java.io.UncheckedIOException io) {
        // the file system refused (permissions, a full or read-only disk): the environment, not a
        // bug
        cmd.getErr().println("approxgp: " + oneLine(io.getMessage()));
        return 1;
      }
      cmd.getErr().println("approxgp: internal error: " + ex);
      ex.printStackTrace(cmd.getErr());
      return 1;
    });
    try {
      return cl.execute(args);
    } catch (OutOfMemoryError e) {
      // a backstop: sizes are checked before allocation where the command can compute them
      err.println(
          "approxgp: out of memory (the heap is " + Runtime.getRuntime().maxMemory() / (1 << 20)
              + " MB): use smaller inputs or options, or give the JVM more (APPROXGP_JAVA_OPTS=-Xmx8g for bin/approxgp)");
      err.flush();
      return 1;
    }
  }

  private static String oneLine(String message) {
    return String.valueOf(message).replace('\n', ' ').replace('\r', ' ');
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }
}
