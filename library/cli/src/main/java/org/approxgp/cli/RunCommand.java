package org.approxgp.cli;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.approxgp.experiment.ConfigHash;
import org.approxgp.experiment.Engines;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ExperimentFailedException;
import org.approxgp.experiment.ExperimentRegistry;
import org.approxgp.experiment.ExperimentSpec;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.Results;
import org.approxgp.experiment.Runner;
import org.approxgp.experiment.TrialExecutor;
import org.approxgp.experiment.Verification;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tech.tablesaw.api.Table;

/**
 * {@code approxgp run EXPERIMENT}: runs a registered experiment (see
 * {@link ExperimentRegistry}) through the resumable {@link Runner} and its results store, on the
 * local thread pool or on Apache Spark ({@code --engine spark}, loaded from the class path: the core
 * never links Spark), and prints its summary table; {@code --out} writes that table as CSV,
 * all-or-nothing. {@code approxgp run --list} prints the registered names.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description =
        "Run a registered experiment (resumable; results/<experiment>/) and print its summary.")
final class RunCommand implements Callable<Integer> {

  @picocli.CommandLine.Mixin
  SparkAuth sparkAuth = new SparkAuth();

  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "EXPERIMENT",
      description = "a name from --list")
  String name;

  @Option(names = "--list", description = "print the registered experiments and exit")
  boolean list;

  @Option(
      names = "--engine",
      paramLabel = "local|spark",
      description = "where trials run (default: APPROXGP_ENGINE, else local)")
  String engine;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description =
          "Spark master URL (default: spark-submit's, else embedded local[*]); --engine spark only")
  String master;

  @Option(
      names = "--mode",
      paramLabel = "smoke|quick|full",
      description = "the notebooks' run mode (default: APPROXGP_MODE, else quick)")
  String mode;

  @Option(names = "--threads", description = "local engine: worker threads (default: all cores)")
  Integer threads;

  @Option(
      names = "--methods",
      split = ",",
      paramLabel = "M,..",
      description = "run (and summarise) only these methods' trials; the rest stay in the store")
  java.util.List<String> methods;

  @Option(
      names = "--datasets",
      split = ",",
      paramLabel = "D,..",
      description = "run (and summarise) only these data sets' trials; the rest stay in the store")
  java.util.List<String> datasets;

  @Option(
      names = "--verify",
      paramLabel = "K",
      description =
          "after the run, recompute K stored trials of every store the run reads (drawn per stored code version,"
              + " seeded by this build's commit) with today's code and hold each to its row by the experiment's"
              + " rule: identical bits, within rounding, sensitive (moves under a rounding-size perturbation too;"
              + " held to its stable columns) or differs; prints 'verified K/K' when none differs, else the trials"
              + " that do, and exits 1 (default: APPROXGP_VERIFY; docs/verification.md)")
  Integer verify;

  @Option(
      names = "--compress",
      description = "after the run, compress the store for shipping (<hash>.jsonl.gz, read"
          + " before the appended <hash>.jsonl; the same rows give the same bytes); with --stored-only, run"
          + " nothing and compress the rows stored for every config EXPERIMENT runs in the mode")
  boolean compress;

  @Option(
      names = "--stored-only",
      description =
          "compute nothing and change nothing: read the store, and fail (exit 1) naming how many trials it lacks"
              + " (with --compress: compress what is stored; with --repair: repair the store first; default:"
              + " APPROXGP_STORED_ONLY)")
  boolean storedOnly;

  @Option(names = "--out", paramLabel = "FILE", description = "write the summary table as CSV")
  Path out;

  /** --results, --repair. */
  @picocli.CommandLine.Mixin
  StoreOptions store;

  @Override
  public Integer call() {
    var stdout = spec.commandLine().getOut();
    if (list) {
      if (name != null) {
        throw CliException.badInput("--list takes no EXPERIMENT (got '" + name + "')");
      }
      for (ExperimentSpec<?, ?> s : ExperimentRegistry.all()) {
        stdout.println(String.format(Locale.ROOT, "%-22s %s", s.name(), s.description()));
      }
      stdout.flush();
      return 0;
    }
    if (name == null) {
      throw CliException.badInput("missing EXPERIMENT (see approxgp run --list)");
    }
    ExperimentSpec<?, ?> es = ExperimentRegistry.find(name)
        .orElseThrow(() -> CliException.badInput("unknown experiment '" + name + "' (known: "
            + String.join(", ", ExperimentRegistry.names()) + ")"));
    ProjectPaths.Mode m = parseMode();
    applyEnvironment();
    String eng =
        engine == null ? Engines.fromEnvironment() : engine.strip().toLowerCase(Locale.ROOT);
    if (!eng.equals(Engines.LOCAL) && !eng.equals(Engines.SPARK)) {
      throw CliException.badInput(
          engine == null
              ? "APPROXGP_ENGINE must be local or spark, got '" + eng + "'"
              : "--engine must be local or spark, got '" + engine + "'");
    }
    if (master != null && eng.equals(Engines.LOCAL)) {
      throw CliException.badInput("--master needs --engine spark");
    }
    if (verify != null && verify < 1) {
      throw CliException.badInput("--verify must be >= 1, got " + verify);
    }
    if (threads != null && threads < 1) {
      throw CliException.badInput("--threads must be >= 1, got " + threads);
    }
    if (threads != null && !eng.equals(Engines.LOCAL)) {
      throw CliException.badInput(
          "--threads is for --engine local (Spark's parallelism is its master's, e.g."
              + " --master 'local[2]')");
    }
    boolean compressStored = compress && storedOnly;
    if (compressStored && (out != null || methods != null || datasets != null)) {
      throw CliException.badInput(
          "--compress --stored-only runs no trial and prints no summary; it takes no --out, --methods or"
              + " --datasets");
    }
    // a stored-only run that compresses nothing writes nothing: its results root is only read,
    // never created
    Path root = storedOnly && !compress && !store.repair
        ? ResultsRoots.resolve(store.results)
        : ResultsRoots.prepare(store.results);
    if (out != null) {
      AtomicFiles.checkWritable(out, "--out", root);
    }
    sparkAuth.apply(eng.equals(Engines.SPARK));
    String mst =
        master == null && eng.equals(Engines.SPARK) ? Engines.masterFromEnvironment() : master;
    TrialExecutor executor;
    try {
      executor = Engines.executor(eng, mst, threads == null ? 0 : threads);
    } catch (Engines.EngineUnavailableException e) {
      throw CliException.badInput(e.getMessage());
    }
    Experiment<?, ?> exp = es.forMode(m);
    exp = select(exp, "--methods", "method", methods);
    exp = select(exp, "--datasets", "dataset", datasets);
    if (!eng.equals(Engines.LOCAL)) {
      executor
          .start(); // seconds; an engine that cannot start is one line, before the store is touched
      spec.commandLine().getErr().println("approxgp: running " + name + " on " + executor);
    }
    if (compressStored) {
      // every store EXPERIMENT reads in this mode, whatever it holds; nothing computed
      for (Experiment<?, ?> e : es.allForMode(m)) {
        Path gz = Runner.of(executor).withResultsRoot(root).compress(e);
        stdout.println(e.name() + ": compressed " + (gz == null ? "nothing (no rows)" : shown(gz)));
      }
      stdout.flush();
      return verify == null ? 0 : verifyAll(es, m, exp, root, executor, stdout);
    }
    long t0 = System.nanoTime();
    Results<?> run;
    try {
      run = Runner.of(executor)
          .withResultsRoot(root)
          .withRepair(store.repair)
          .withStoredOnly(storedOnly)
          .run(exp);
    } catch (org.approxgp.experiment.MissingTrialsException e) {
      spec.commandLine().getErr().println("approxgp: " + e.getMessage());
      spec.commandLine().getErr().flush();
      return 1;
    } catch (ExperimentFailedException e) {
      var stderr = spec.commandLine().getErr();
      stderr.println("approxgp: " + name + ": " + e.failures().size() + " of "
          + exp.trials().size()
          + " trials failed (" + e.partial().rows().size() + " stored in "
          + e.partial().file() + "); first failures:");
      e.failures().stream().limit(5).forEach(f -> stderr.println("  " + f));
      stderr.flush();
      return 1;
    }
    double secs = (System.nanoTime() - t0) * 1e-9;
    Table summary = es.summarize(exp.config(), run);
    stdout.println(String.format(
        Locale.ROOT,
        "%s (%s, mode %s): %d trials, %d reused, %d computed on %s in %.1f s;" + " results in %s",
        name,
        exp.name(),
        m.name().toLowerCase(Locale.ROOT),
        run.rows().size(),
        run.reused(),
        run.computed(),
        executor,
        secs,
        run.file()));
    // printed by the display rule (4 significant digits); the --out CSV keeps every digit
    stdout.println(org.approxgp.report.Tables.rounded(summary).printAll());
    stdout.flush();
    if (out != null) {
      StringWriter csv = new StringWriter();
      summary.write().csv(csv);
      AtomicFiles.write(out, csv.toString());
    }
    if (compress) {
      Path gz = Runner.of(executor).withResultsRoot(root).compress(exp);
      stdout.println(name + ": compressed " + (gz == null ? "nothing (no rows)" : shown(gz)));
      stdout.flush();
    }
    return verify == null ? 0 : verifyAll(es, m, exp, root, executor, stdout);
  }

  /**
   * {@code --verify K}: {@code exp}'s store, then (when no --methods/--datasets selects trials) every other store
   * the experiment's notebook reads in this mode that exists ({@link ExperimentSpec#allForMode}), K trials each;
   * prints one report per store; exit 0 if no recomputed trial differs, else 1.
   */
  private int verifyAll(
      ExperimentSpec<?, ?> es,
      ProjectPaths.Mode m,
      Experiment<?, ?> exp,
      Path root,
      TrialExecutor executor,
      java.io.PrintWriter stdout) {
    List<Experiment<?, ?>> stores = new ArrayList<>(List.of(exp));
    if (methods == null && datasets == null) {
      for (Experiment<?, ?> e : es.allForMode(m)) {
        boolean same = e.name().equals(exp.name())
            && ConfigHash.storeHash(e.config()).equals(ConfigHash.storeHash(exp.config()));
        if (!same && Runner.of(executor).withResultsRoot(root).hasStore(e)) {
          stores.add(e);
        }
      }
    }
    boolean passed = true;
    for (Experiment<?, ?> e : stores) {
      Verification v = Runner.of(executor).withResultsRoot(root).verify(e, verify);
      String label = stores.size() == 1
          ? name
          : name + " [" + e.name() + "/" + ConfigHash.storeHash(e.config()) + "]";
      stdout.println(label + ": " + v.report());
      stdout.flush();
      passed &= v.passed();
    }
    return passed ? 0 : 1;
  }

  /**
   * The settings a notebook's {@link Runner#defaults()} reads from the environment, where no flag gives them:
   * {@code APPROXGP_STORED_ONLY} ({@code approxgp.storedOnly}) for {@code --stored-only} and {@code APPROXGP_VERIFY}
   * ({@code approxgp.verify}; 0 verifies nothing) for {@code --verify}. A flag overrides its variable, which is then
   * not read.
   *
   * @throws CliException (exit 2) if a variable that is read has an invalid value
   */
  private void applyEnvironment() {
    try {
      if (!storedOnly) {
        storedOnly = Runner.storedOnlyFromEnvironment();
      }
      if (verify == null) {
        int k = Runner.verifyFromEnvironment();
        verify = k == 0 ? null : k;
      }
    } catch (IllegalArgumentException e) {
      throw CliException.badInput(e.getMessage());
    }
  }

  /** "FILE (R rows, B bytes)" of a compressed store. */
  private static String shown(Path gz) {
    long rows;
    try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(
        new java.util.zip.GZIPInputStream(java.nio.file.Files.newInputStream(gz)),
        java.nio.charset.StandardCharsets.UTF_8))) {
      rows = in.lines().filter(l -> !l.isBlank()).count();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot read " + gz, e);
    }
    return ProjectPaths.shown(gz)
        + String.format(Locale.ROOT, " (%,d rows, %,d bytes)", rows, gz.toFile().length());
  }

  private static Experiment<?, ?> select(
      Experiment<?, ?> exp, String option, String column, java.util.List<String> v) {
    if (v == null) {
      return exp;
    }
    try {
      return exp.selecting(column, v);
    } catch (IllegalArgumentException e) {
      throw CliException.badInput(option + ": " + e.getMessage());
    }
  }

  private ProjectPaths.Mode parseMode() {
    if (mode == null) {
      try {
        return ProjectPaths.mode();
      } catch (IllegalArgumentException e) {
        throw CliException.badInput(e.getMessage());
      }
    }
    try {
      return ProjectPaths.Mode.valueOf(mode.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw CliException.badInput("--mode must be smoke, quick or full, got '" + mode + "'");
    }
  }
}
