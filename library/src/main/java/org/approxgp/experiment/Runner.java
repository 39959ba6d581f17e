package org.approxgp.experiment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs an experiment's trials through a {@link TrialExecutor} (by default a local thread pool).
 * Before running it reads the experiment's results file and skips every trial already there; each
 * trial that finishes is appended to the file at once. Rows come back in trial-list order, so
 * results do not depend on the thread count or the executor.
 *
 * <pre>{@code
 * Results<TrialKey> r = Runner.defaults().run(Experiment.of("mc-mean", cfg, keys, MyTrials::run));
 * Table t = r.table();
 * }</pre>
 */
public final class Runner {

  private final TrialExecutor executor;
  private final Path resultsRoot;
  private final ProgressListener progress;

  private Runner(TrialExecutor executor, Path resultsRoot, ProgressListener progress) {
    this.executor = Objects.requireNonNull(executor, "executor");
    this.resultsRoot = resultsRoot;
    this.progress = progress;
  }

  /**
   * All cores, results under {@link ProjectPaths#resultsRoot()}, progress from
   * {@link ProgressListener#automatic()}: a live display in a notebook cell, stderr elsewhere.
   */
  public static Runner defaults() {
    return new Runner(TrialExecutor.local(Runtime.getRuntime().availableProcessors()), ProjectPaths.resultsRoot(),
        ProgressListener.automatic());
  }

  /** The local thread pool with {@code n} threads. */
  public Runner withThreads(int n) {
    return new Runner(TrialExecutor.local(n), resultsRoot, progress);
  }

  /** Another executor (e.g. a cluster); see {@link TrialExecutor}. */
  public Runner withExecutor(TrialExecutor e) {
    return new Runner(e, resultsRoot, progress);
  }

  public Runner withResultsRoot(Path root) {
    return new Runner(executor, root, progress);
  }

  public Runner withProgress(ProgressListener listener) {
    return new Runner(executor, resultsRoot, listener);
  }

  public Path resultsRoot() {
    return resultsRoot;
  }

  public TrialExecutor executor() {
    return executor;
  }

  /**
   * Runs the trials not yet in the results file.
   *
   * @throws ExperimentFailedException if any trial threw (all other trials still run and are stored)
   * @throws IllegalStateException     if the calling thread is interrupted; finished trials are
   *                                   stored and the next run resumes from them
   */
  public <C extends Record, K extends Record> Results<K> run(Experiment<C, K> exp) {
    List<String> keyColumns = exp.keyColumns();
    try (ResultStore store = ResultStore.open(resultsRoot, exp.name(), exp.config(), keyColumns)) {
      Map<String, ResultRow> done = store.existing();
      List<K> todo = new ArrayList<>();
      for (K k : exp.trials()) {
        if (!done.containsKey(TrialKeys.id(k))) {
          todo.add(k);
        }
      }
      int total = exp.trials().size();
      int reused = total - todo.size();
      progress.started(exp.name(), total, reused);
      Map<String, ResultRow> fresh = new HashMap<>();
      List<TrialFailure> failures = new ArrayList<>();
      if (!todo.isEmpty()) {
        TrialExecutor.Callback<K> callback = new TrialExecutor.Callback<>() {
          @Override
          public void finished(K key, ResultRow row) {
            String clash = row.values().keySet().stream().filter(keyColumns::contains).findFirst().orElse(null);
            if (clash != null) {
              failed(key, new IllegalStateException("result column '" + clash + "' clashes with a key column"));
              return;
            }
            store.append(TrialKeys.id(key), TrialKeys.values(key), row);
            fresh.put(TrialKeys.id(key), row);
            progress.advanced(reused + fresh.size() + failures.size(), failures.size(), total);
          }

          @Override
          public void failed(K key, Throwable cause) {
            failures.add(new TrialFailure(key, cause));
            progress.advanced(reused + fresh.size() + failures.size(), failures.size(), total);
          }
        };
        try {
          executor.execute(exp, todo, callback);
        } catch (InterruptedException e) {
          // report first, with the interrupt flag clear (a kernel's socket I/O on an interrupted thread can fail)
          try {
            progress.interrupted(reused + fresh.size() + failures.size(), failures.size(), total);
          } finally {
            Thread.currentThread().interrupt();
          }
          throw new IllegalStateException("run of " + exp.name() + " interrupted after "
              + (reused + fresh.size()) + " of " + total + " trials; finished trials are stored in "
              + store.file() + " and the next run resumes from them", e);
        }
      }
      progress.finished(reused + fresh.size() + failures.size(), failures.size(), total);
      List<K> keys = new ArrayList<>();
      List<ResultRow> rows = new ArrayList<>();
      for (K k : exp.trials()) {
        String id = TrialKeys.id(k);
        ResultRow r = done.containsKey(id) ? done.get(id) : fresh.get(id);
        if (r != null) {
          keys.add(k);
          rows.add(r);
        }
      }
      Results<K> results = new Results<>(exp.name(), store.file(), exp.keyType(), keys, rows, reused, fresh.size());
      if (!failures.isEmpty()) {
        Map<String, Integer> position = new HashMap<>();
        for (int i = 0; i < exp.trials().size(); i++) {
          position.put(TrialKeys.id(exp.trials().get(i)), i);
        }
        failures.sort((a, b) -> Integer.compare(position.get(TrialKeys.id(a.key())), position.get(TrialKeys.id(b.key()))));
        throw new ExperimentFailedException(exp.name(), failures, results);
      }
      return results;
    }
  }
}
