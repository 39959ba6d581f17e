package org.approxgp.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.approxgp.linalg.Linalg;

/**
 * Runs an experiment's trials through a {@link TrialExecutor} (by default a local thread pool).
 * Before running it reads the experiment's results file and skips every trial already there; each
 * trial that finishes is appended to the file at once. Pending trials start longest first when the
 * experiment has a cost estimate ({@link Experiment#withCost}). Rows come back in trial-list order, so
 * results do not depend on the thread count, the start order or the executor.
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
  private final boolean repair;
  private final int verify;
  private final boolean storedOnly;

  private Runner(
      TrialExecutor executor,
      Path resultsRoot,
      ProgressListener progress,
      boolean repair,
      int verify,
      boolean storedOnly) {
    this.executor = Objects.requireNonNull(executor, "executor");
    this.resultsRoot = resultsRoot;
    this.progress = progress;
    this.repair = repair;
    this.verify = verify;
    this.storedOnly = storedOnly;
  }

  private Runner(
      TrialExecutor executor, Path resultsRoot, ProgressListener progress, boolean repair) {
    this(executor, resultsRoot, progress, repair, 0, false);
  }

  /**
   * Results under {@link ProjectPaths#resultsRoot()}, progress from {@link ProgressListener#automatic()} (a live
   * display in a notebook cell, stderr elsewhere), and the engine of
   * {@link Engines#fromEnvironment()}: by default the local thread pool on all cores; with
   * {@code APPROXGP_ENGINE=spark} (or {@code -Dapproxgp.engine=spark}) the Spark executor on
   * {@code APPROXGP_MASTER} (default an embedded {@code local[*]}), so a notebook switches engine
   * without changing a cell. {@code APPROXGP_VERIFY=K} ({@code -Dapproxgp.verify=K}) turns on {@link #withVerify}
   * and {@code APPROXGP_STORED_ONLY=true} ({@code -Dapproxgp.storedOnly=true}) {@link #withStoredOnly}, so shipped
   * stores can be checked through the notebooks that read them ({@code .ci/check-shipped}).
   *
   * @throws Engines.EngineUnavailableException if that engine's module is not on the class path
   * @throws IllegalArgumentException if {@code APPROXGP_VERIFY} is not a whole number &ge; 0 or
   *     {@code APPROXGP_STORED_ONLY} not true/false
   */
  public static Runner defaults() {
    String engine = Engines.fromEnvironment();
    TrialExecutor ex = engine.equals(Engines.LOCAL)
        ? TrialExecutor.local(Runtime.getRuntime().availableProcessors())
        : Engines.executor(engine, Engines.masterFromEnvironment(), 0);
    return new Runner(
        ex,
        ProjectPaths.resultsRoot(),
        ProgressListener.automatic(),
        false,
        verifyFromEnvironment(),
        storedOnlyFromEnvironment());
  }

  /** {@code approxgp.verify} / {@code APPROXGP_VERIFY}: trials to verify after each run, default 0. */
  public static int verifyFromEnvironment() {
    String v = Engines.setting("approxgp.verify", "APPROXGP_VERIFY");
    if (v == null || v.isBlank()) {
      return 0;
    }
    try {
      int k = Integer.parseInt(v.strip());
      if (k >= 0) {
        return k;
      }
    } catch (NumberFormatException e) {
      // worded below
    }
    throw new IllegalArgumentException(
        "APPROXGP_VERIFY must be a whole number >= 0 (trials to verify), got '" + v + "'");
  }

  /** {@code approxgp.storedOnly} / {@code APPROXGP_STORED_ONLY}: true or false, default false. */
  public static boolean storedOnlyFromEnvironment() {
    String v = Engines.setting("approxgp.storedOnly", "APPROXGP_STORED_ONLY");
    if (v == null || v.isBlank()) {
      return false;
    }
    return switch (v.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "true", "1", "yes" -> true;
      case "false", "0", "no" -> false;
      default ->
        throw new IllegalArgumentException(
            "APPROXGP_STORED_ONLY must be true or false, got '" + v + "'");
    };
  }

  /**
   * {@code executor}, results under {@link ProjectPaths#resultsRoot()}, progress from
   * {@link ProgressListener#automatic()}.
   */
  public static Runner of(TrialExecutor executor) {
    return new Runner(executor, ProjectPaths.resultsRoot(), ProgressListener.automatic(), false);
  }

  /**
   * The executor of engine {@code engine} ({@code local} on all cores, or {@code spark} on its default
   * master), e.g. {@code Runner.defaults().withEngine("spark")} in a notebook cell.
   *
   * @throws Engines.EngineUnavailableException if the engine's module is not on the class path
   */
  public Runner withEngine(String engine) {
    return withExecutor(Engines.executor(engine, null, 0));
  }

  /** The executor of engine {@code engine} on {@code master} (e.g. {@code spark://host:7077}). */
  public Runner withEngine(String engine, String master) {
    return withExecutor(Engines.executor(engine, master, 0));
  }

  /** The local thread pool with {@code n} threads. */
  public Runner withThreads(int n) {
    return new Runner(TrialExecutor.local(n), resultsRoot, progress, repair, verify, storedOnly);
  }

  /** Another executor (e.g. a cluster); see {@link TrialExecutor}. */
  public Runner withExecutor(TrialExecutor e) {
    return new Runner(e, resultsRoot, progress, repair, verify, storedOnly);
  }

  public Runner withResultsRoot(Path root) {
    return new Runner(executor, root, progress, repair, verify, storedOnly);
  }

  public Runner withProgress(ProgressListener listener) {
    return new Runner(executor, resultsRoot, listener, repair, verify, storedOnly);
  }

  /**
   * With {@code repair}, a results file holding complete lines that are not stored rows (hand edits, a disk
   * error) has them moved to {@code <hash>.jsonl.quarantine} beside it, and their trials are computed again;
   * without it (the default) such a file is refused with {@link StoreCorruptException}. A torn last line (no
   * newline) is always dropped: it is the one a killed run leaves.
   */
  public Runner withRepair(boolean repair) {
    return new Runner(executor, resultsRoot, progress, repair, verify, storedOnly);
  }

  /**
   * After every {@link #run} that succeeds, recompute {@code k} of its stored trials with today's code
   * ({@link #verify}, seed 0), print the verdict to stderr, and throw {@link VerificationFailedException} if any
   * differs; 0 (the default) verifies nothing.
   */
  public Runner withVerify(int k) {
    if (k < 0) {
      throw new IllegalArgumentException("need k >= 0 trials to verify, got " + k);
    }
    return new Runner(executor, resultsRoot, progress, repair, k, storedOnly);
  }

  /**
   * With {@code storedOnly}, a {@link #run} whose store lacks any of its trials computes nothing and throws
   * {@link MissingTrialsException}: a run that must read shipped results, never recompute them. It changes nothing
   * on disk either (no lock, directory or empty store is created, a torn last line is skipped, not cut), unless
   * {@link #withRepair} asks it to repair the store.
   */
  public Runner withStoredOnly(boolean storedOnly) {
    return new Runner(executor, resultsRoot, progress, repair, verify, storedOnly);
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
   * @throws StoreCorruptException     if the results file holds a line that is not a row (see {@link #withRepair})
   * @throws ResultsLockedException    if another run holds the results file
   * @throws Engines.EngineUnavailableException if the executor's engine cannot start (nothing is written)
   * @throws IllegalStateException     if the calling thread is interrupted; finished trials are
   *                                   stored and the next run resumes from them
   * @throws MissingTrialsException    with {@link #withStoredOnly}, if any trial is not stored (nothing runs)
   * @throws VerificationFailedException with {@link #withVerify}, if a recomputed trial differs from its row
   */
  public <C extends Record, K extends Record> Results<K> run(Experiment<C, K> exp) {
    Results<K> results = runTrials(exp);
    if (verify > 0) {
      Verification v = verify(exp, verify, 0);
      System.err.println(exp.name() + ": " + v.report());
      if (!v.passed()) {
        throw new VerificationFailedException(v);
      }
    }
    return results;
  }

  private <C extends Record, K extends Record> Results<K> runTrials(Experiment<C, K> exp) {
    List<String> keyColumns = exp.keyColumns();
    executor.start();
    // stored-only reads and changes nothing (unless asked to repair); any other run holds the store's lock
    try (ResultStore store = storedOnly && !repair
        ? ResultStore.openReadOnly(resultsRoot, exp.name(), exp.config(), keyColumns)
        : ResultStore.open(resultsRoot, exp.name(), exp.config(), keyColumns, repair)) {
      Map<String, ResultRow> done = store.existing();
      List<K> todo = new ArrayList<>();
      for (K k : exp.trials()) {
        if (!done.containsKey(TrialKeys.id(k))) {
          todo.add(k);
        }
      }
      int total = exp.trials().size();
      int reused = total - todo.size();
      if (storedOnly && !todo.isEmpty()) {
        throw new MissingTrialsException(exp.name(), store.file(), todo.size(), total);
      }
      progress.started(exp.name(), total, reused);
      Map<String, ResultRow> fresh = new HashMap<>();
      List<TrialFailure> failures = new ArrayList<>();
      if (!todo.isEmpty()) {
        TrialExecutor.Callback<K> callback = new TrialExecutor.Callback<>() {
          @Override
          public void finished(K key, ResultRow trialRow) {
            ResultRow row = withBackend(trialRow);
            String clash = row.values().keySet().stream()
                .filter(keyColumns::contains)
                .findFirst()
                .orElse(null);
            if (clash != null) {
              failed(
                  key,
                  new IllegalStateException(
                      "result column '" + clash + "' clashes with a key column"));
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
        try (Linalg.Scope oneThread = Linalg.oneNativeThread()) {
          executor.execute(exp, exp.longestFirst(todo), callback);
        } catch (InterruptedException e) {
          // report first, with the interrupt flag clear (a kernel's socket I/O on an interrupted
          // thread can fail)
          try {
            progress.interrupted(reused + fresh.size() + failures.size(), failures.size(), total);
          } finally {
            Thread.currentThread().interrupt();
          }
          throw new IllegalStateException(
              "run of " + exp.name() + " interrupted after "
                  + (reused + fresh.size()) + " of " + total
                  + " trials; finished trials are stored in "
                  + store.file() + " and the next run resumes from them",
              e);
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
      Results<K> results =
          new Results<>(exp.name(), store.file(), exp.keyType(), keys, rows, reused, fresh.size());
      if (!failures.isEmpty()) {
        Map<String, Integer> position = new HashMap<>();
        for (int i = 0; i < exp.trials().size(); i++) {
          position.put(TrialKeys.id(exp.trials().get(i)), i);
        }
        failures.sort((a, b) -> Integer.compare(
            position.get(TrialKeys.id(a.key())), position.get(TrialKeys.id(b.key()))));
        throw new ExperimentFailedException(exp.name(), failures, results);
      }
      return results;
    }
  }

  /**
   * Compresses {@code exp}'s store for shipping ({@link ResultStore#compress}: {@code <hash>.jsonl.gz}, read by every
   * later run before the appended {@code <hash>.jsonl}).
   *
   * @return the compressed file, or null when nothing is stored
   */
  public Path compress(Experiment<?, ?> exp) {
    return ResultStore.compress(resultsRoot, exp.name(), exp.config());
  }

  /**
   * Recomputes {@code k} of {@code exp}'s stored trials with today's code and compares each with its stored row
   * ({@link Verification} says how). The trials are drawn at random, reproducibly from {@code seed}, among those
   * of {@code exp} in its store, and recomputed side by side on up to one thread per core (each on its own thread,
   * as the runner computes trials); the store is read, never written.
   *
   * @throws IllegalArgumentException if k &lt; 1 or the store holds none of the experiment's trials
   */
  public <C extends Record, K extends Record> Verification verify(
      Experiment<C, K> exp, int k, long seed) {
    if (k < 1) {
      throw new IllegalArgumentException("need k >= 1 trials to verify, got " + k);
    }
    List<K> stored = new ArrayList<>();
    Map<String, ResultRow> rows;
    Path file = resultsRoot
        .resolve(exp.name())
        .resolve(ConfigHash.storeHash(exp.config()) + StoreFiles.ROWS);
    Path gz = file.resolveSibling(ConfigHash.storeHash(exp.config()) + StoreFiles.ROWS_GZ);
    if (!Files.exists(file) && !Files.exists(gz)) {
      throw new IllegalArgumentException(
          exp.name() + ": no stored trial to verify (no results file " + file + "; run it first)");
    }
    try (ResultStore store =
        ResultStore.openReadOnly(resultsRoot, exp.name(), exp.config(), exp.keyColumns())) {
      rows = store.existing();
    }
    for (K key : exp.trials()) {
      if (rows.containsKey(TrialKeys.id(key))) {
        stored.add(key);
      }
    }
    if (stored.isEmpty()) {
      throw new IllegalArgumentException(exp.name() + ": no stored trial to verify (run it first)");
    }
    java.util.Collections.shuffle(stored, new java.util.Random(seed));
    List<K> picks = stored.subList(0, Math.min(k, stored.size()));
    // the picks are independent: recomputed side by side, as a run computes its trials
    int threads = Math.min(picks.size(), Runtime.getRuntime().availableProcessors());
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    List<java.util.concurrent.Future<Map<String, Object>>> recomputed = new ArrayList<>();
    // one BLAS thread, as the rows were computed (Linalg.oneNativeThread)
    try (Linalg.Scope oneThread = Linalg.oneNativeThread()) {
      for (K key : picks) {
        // through the store's own encoding, so both sides have the types a stored row is read back
        // with
        recomputed.add(pool.submit(() -> JsonRows.read(
            JsonRows.write(withBackend(exp.trial().run(exp.config(), key)).values()))));
      }
      List<String> checked = new ArrayList<>();
      List<String> differences = new ArrayList<>();
      for (int i = 0; i < picks.size(); i++) {
        String id = TrialKeys.id(picks.get(i));
        checked.add(id);
        ResultRow old = rows.get(id);
        Map<String, Object> now;
        try {
          now = recomputed.get(i).get();
        } catch (java.util.concurrent.ExecutionException e) {
          differences.add(id + " (stored by " + old.get(ResultRow.CODE_VERSION)
              + "): the trial now fails: " + e.getCause());
          continue;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while verifying " + exp.name(), e);
        }
        List<String> diff = Verification.compare(old.values(), now);
        if (!diff.isEmpty()) {
          differences.add(id + " (stored by " + old.get(ResultRow.CODE_VERSION) + "): "
              + String.join("; ", diff));
        }
      }
      return new Verification(exp.name(), checked, differences);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The row with a {@value ResultRow#CODE_VERSION} column naming the code ({@link CodeVersion}) and a
   * {@value ResultRow#BACKEND} column naming the dense linear-algebra backend
   * ({@link Linalg#defaultBackendName()}: the trials run on executor threads, which use the process
   * default), unless the trial wrote that column itself. The backend is deliberately not part of the
   * config hash: results computed with EJML and with OpenBLAS agree to rounding, so a run with the other
   * backend resumes the same results file instead of discarding it; nor is the code version, so that
   * {@link #verify} can hold stored rows to today's code instead of silently recomputing them.
   */
  static ResultRow withBackend(ResultRow row) {
    LinkedHashMap<String, Object> m = new LinkedHashMap<>(row.values());
    m.putIfAbsent(ResultRow.BACKEND, Linalg.defaultBackendName());
    m.putIfAbsent(ResultRow.CODE_VERSION, CodeVersion.current());
    return ResultRow.ofRaw(m);
  }
}
