package org.approxgp.experiment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs an experiment's trials on a fixed thread pool. Before running it reads the experiment's
 * results file and skips every trial already there; each trial that finishes is appended to the
 * file at once. Rows come back in trial-list order, so results do not depend on the thread count.
 *
 * <pre>{@code
 * Results r = Runner.defaults().run(Experiment.of("mc-mean", cfg, keys, MyTrials::run));
 * Table t = r.table();
 * }</pre>
 */
public final class Runner {

  private final int threads;
  private final Path resultsRoot;
  private final ProgressListener progress;

  private Runner(int threads, Path resultsRoot, ProgressListener progress) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    this.threads = threads;
    this.resultsRoot = resultsRoot;
    this.progress = progress;
  }

  /** All cores, results under {@link ProjectPaths#resultsRoot()}, progress on stderr. */
  public static Runner defaults() {
    return new Runner(Runtime.getRuntime().availableProcessors(), ProjectPaths.resultsRoot(),
        ConsoleProgress.stderr());
  }

  public Runner withThreads(int n) {
    return new Runner(n, resultsRoot, progress);
  }

  public Runner withResultsRoot(Path root) {
    return new Runner(threads, root, progress);
  }

  public Runner withProgress(ProgressListener listener) {
    return new Runner(threads, resultsRoot, listener);
  }

  public Path resultsRoot() {
    return resultsRoot;
  }

  /**
   * Runs the trials not yet in the results file.
   *
   * @throws ExperimentFailedException if any trial threw (all other trials still run and are stored)
   * @throws IllegalStateException     if the calling thread is interrupted; finished trials are
   *                                   stored and the next run resumes from them
   */
  public <C extends Record> Results run(Experiment<C> exp) {
    try (ResultStore store = ResultStore.open(resultsRoot, exp.name(), exp.config())) {
      Map<String, ResultRow> done = store.existing();
      List<TrialKey> todo = new ArrayList<>();
      for (TrialKey k : exp.trials()) {
        if (!done.containsKey(k.id())) {
          todo.add(k);
        }
      }
      int total = exp.trials().size();
      int reused = total - todo.size();
      progress.started(exp.name(), total, reused);
      Map<TrialKey, ResultRow> fresh = new HashMap<>();
      List<TrialFailure> failures = new ArrayList<>();
      if (!todo.isEmpty()) {
        runPool(exp, store, todo, fresh, failures, reused, total);
      }
      progress.finished(reused + fresh.size() + failures.size(), failures.size(), total);
      List<TrialKey> keys = new ArrayList<>();
      List<ResultRow> rows = new ArrayList<>();
      for (TrialKey k : exp.trials()) {
        ResultRow r = done.containsKey(k.id()) ? done.get(k.id()) : fresh.get(k);
        if (r != null) {
          keys.add(k);
          rows.add(r);
        }
      }
      Results results = new Results(exp.name(), store.file(), keys, rows, reused, fresh.size());
      if (!failures.isEmpty()) {
        failures.sort((a, b) -> Integer.compare(exp.trials().indexOf(a.key()), exp.trials().indexOf(b.key())));
        throw new ExperimentFailedException(exp.name(), failures, results);
      }
      return results;
    }
  }

  private <C extends Record> void runPool(Experiment<C> exp, ResultStore store, List<TrialKey> todo,
      Map<TrialKey, ResultRow> fresh, List<TrialFailure> failures, int reused, int total) {
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, todo.size()), daemonThreads(exp.name()));
    CompletionService<ResultRow> cs = new ExecutorCompletionService<>(pool);
    Map<Future<ResultRow>, TrialKey> keyOf = new HashMap<>();
    try {
      for (TrialKey k : todo) {
        keyOf.put(cs.submit(() -> {
          ResultRow row = exp.trial().run(exp.config(), k);
          if (row == null) {
            throw new IllegalStateException("trial returned null");
          }
          store.append(k, row);
          return row;
        }), k);
      }
      for (int i = 0; i < todo.size(); i++) {
        Future<ResultRow> f = cs.take();
        TrialKey k = keyOf.get(f);
        try {
          fresh.put(k, f.get());
        } catch (ExecutionException e) {
          failures.add(new TrialFailure(k, e.getCause()));
        }
        progress.advanced(reused + fresh.size() + failures.size(), failures.size(), total);
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("run of " + exp.name() + " interrupted after "
          + (reused + fresh.size()) + " of " + total + " trials; finished trials are stored in "
          + store.file() + " and the next run resumes from them", e);
    } finally {
      pool.shutdownNow();
    }
  }

  private static ThreadFactory daemonThreads(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "approxgp-" + name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
