package org.approxgp.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.approxgp.experiment.ExperimentFailedException;
import org.approxgp.experiment.Results;
import org.approxgp.experiment.Runner;
import org.approxgp.papers.qp.QpMining;
import org.approxgp.papers.qp.QpMiningTables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code approxgp coal}: the QP paper's coal-mining experiment (Table 1, Mining row) — EP, QP and VB
 * with the square link over seeded event splits — printed beside the paper's numbers. It runs
 * {@link QpMining}'s experiment through the same resumable {@link Runner} and results store as the
 * notebook ({@code results/qp-mining/}), so finished seeds are reused by the next run. {@code --protocol
 * authors} runs the authors' own protocol ({@link QpMining.Protocol#authors()}); each of its switches can be
 * flipped alone ({@code --year-split false}, …) to measure that difference's effect.
 */
@Command(
    name = "coal",
    mixinStandardHelpOptions = true,
    description =
        "Coal-mining Poisson experiment (QP paper Table 1, last row), beside the paper's numbers.")
final class CoalCommand implements Callable<Integer> {

  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--seeds",
      defaultValue = "200",
      description = "seeds 0..N-1 (default ${DEFAULT-VALUE}, the paper's)")
  int seeds;

  @Option(names = "--threads", description = "worker threads (default: all cores)")
  Integer threads;

  @Option(
      names = "--methods",
      split = ",",
      defaultValue = "ep,qp,vb",
      description = "subset of ep,qp,vb")
  List<String> methods;

  @Option(
      names = "--protocol",
      defaultValue = "clean",
      paramLabel = "authors|clean",
      description =
          "clean (default, the paper's text: event split) or authors (the authors' code: NumPy year split,"
              + " their counts, GPy start, VB without mean function, GPy NTLL, np.std)")
  String protocol;

  @Option(
      names = "--year-split",
      arity = "1",
      paramLabel = "BOOL",
      description =
          "override one switch of the protocol: whole years (true) or events (false) to train/test")
  Boolean yearSplit;

  @Option(
      names = "--authors-counts",
      arity = "1",
      paramLabel = "BOOL",
      description =
          "override: the authors' 112 yearly counts (true) or boot's dates binned (false)")
  Boolean authorsCounts;

  @Option(
      names = "--gpy-start",
      arity = "1",
      paramLabel = "BOOL",
      description = "override: start at GPy's l = 1, sf2 = 1 (true) or l = 10, sf2 = 0.1 (false)")
  Boolean gpyStart;

  @Option(
      names = "--vb-mean-function",
      arity = "1",
      paramLabel = "BOOL",
      description =
          "override: VB with the prior mean 1 (true) or as the authors ran it, mean 0 (false)")
  Boolean vbMeanFunction;

  @Option(
      names = "--exact-ntll",
      arity = "1",
      paramLabel = "BOOL",
      description =
          "override: NTLL from the exact predictive, GPy's (true) or the NB of appendix H (false)")
  Boolean exactNtll;

  @Option(
      names = "--population-sd",
      arity = "1",
      paramLabel = "BOOL",
      description = "override: +- as np.std, divisor n (true) or the sample sd, n - 1 (false)")
  Boolean populationSd;

  /** --results, --repair. */
  @picocli.CommandLine.Mixin
  StoreOptions store;

  @Override
  public Integer call() {
    if (seeds < 1) {
      throw CliException.badInput("--seeds must be >= 1, got " + seeds);
    }
    // each trial holds a key, a stored row and the runner's bookkeeping: about a kilobyte
    Memory.require(
        "--seeds " + seeds + " (" + (long) seeds * methods.size() + " trials)",
        1024.0 * seeds * methods.size(),
        (double) seeds * methods.size());
    for (String m : methods) {
      if (!QpMining.METHODS.contains(m)) {
        throw CliException.badInput(
            "--methods: unknown '" + m + "' (known: " + QpMining.METHODS + ")");
      }
    }
    int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    if (t < 1) {
      throw CliException.badInput("--threads must be >= 1, got " + t);
    }
    QpMining.Protocol p;
    try {
      p = QpMining.Protocol.of(protocol);
    } catch (IllegalArgumentException e) {
      throw CliException.badInput("--protocol: " + e.getMessage());
    }
    p = yearSplit == null ? p : p.withYearSplit(yearSplit);
    p = authorsCounts == null ? p : p.withAuthorsCounts(authorsCounts);
    p = gpyStart == null ? p : p.withGpyStart(gpyStart);
    p = vbMeanFunction == null ? p : p.withVbMeanFunction(vbMeanFunction);
    p = exactNtll == null ? p : p.withExactNtll(exactNtll);
    p = populationSd == null ? p : p.withPopulationSd(populationSd);
    var out = spec.commandLine().getOut();
    QpMining.Config config = new QpMining.Config(seeds, methods, p);
    long t0 = System.nanoTime();
    Results<QpMining.Key> run;
    ExperimentFailedException failed = null;
    Path root = ResultsRoots.prepare(store.results);
    Runner runner;
    try {
      runner = Runner.defaults(); // APPROXGP_STORED_ONLY, APPROXGP_VERIFY as in a notebook
    } catch (IllegalArgumentException e) {
      throw CliException.badInput(e.getMessage());
    }
    try {
      run = runner
          .withThreads(t)
          .withResultsRoot(root)
          .withRepair(store.repair)
          .run(QpMining.experiment(config));
    } catch (ExperimentFailedException e) {
      failed = e;
      @SuppressWarnings("unchecked")
      Results<QpMining.Key> partial = (Results<QpMining.Key>) e.partial();
      run = partial;
    }
    double secs = (System.nanoTime() - t0) * 1e-9;
    out.println("Coal mining, Poisson square link, " + seeds + " seeds, " + t + " threads, "
        + String.format(Locale.ROOT, "%.1f s", secs) + " (" + run.reused() + " seeds reused from "
        + run.file() + ")");
    out.print(
        QpMiningTables.report(QpMining.seedResults(run, config.methods()), config.methods(), p));
    int nFailed = failed == null ? 0 : failed.failures().size();
    out.println("failed trials: " + nFailed);
    if (failed != null) {
      failed.failures().stream().limit(5).forEach(f -> out.println("  " + f));
    }
    out.flush();
    return failed == null ? 0 : 1;
  }
}
