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
   * ({@link #verify(Experiment, int)}, seeded by the commit), print its one-line summary to stdout, and throw {@link VerificationFailedException} if any
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
      Verification v = verify(exp, verify);
      // one line on standard output (a notebook shows it with the cell's other prints); the trials
      // that are
      // sensitive or differ, with their columns, are in the exception when verification fails
      System.out.println(exp.name() + ": " + v.summary());
      if (!v.passed()) {
        throw new VerificationFailedException(v);
      }
    }
    return results;
  }

  private <C extends Record, K extends Record> Results<K> runTrials(Experiment<C, K> exp) {
    List<String> keyColumns = exp.keyColumns();
    executor.start();
    // stored-only reads and changes nothing (unless asked to repair); any other run holds the
    // store's lock
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

  /** Whether {@code exp}'s store exists under this runner's results root (plain or compressed). */
  public boolean hasStore(Experiment<?, ?> exp) {
    Path dir = resultsRoot.resolve(exp.name());
    String hash = ConfigHash.storeHash(exp.config());
    return Files.exists(dir.resolve(hash + StoreFiles.ROWS))
        || Files.exists(dir.resolve(hash + StoreFiles.ROWS_GZ));
  }

  /**
   * {@link #verify(Experiment, int, long)} seeded by today's code ({@link CodeVersion#seed}): each commit draws
   * other trials, so a store is checked further at every commit that verifies it.
   */
  public <C extends Record, K extends Record> Verification verify(Experiment<C, K> exp, int k) {
    return verify(exp, k, CodeVersion.seed());
  }

  /**
   * Recomputes {@code k} of {@code exp}'s stored trials with today's code and classifies each against its stored
   * row by the experiment's {@link VerifyRule}: identical bits, within rounding, sensitive, or differs
   * ({@link Verification.Kind}). The trials are drawn reproducibly from {@code seed}, spread over the code versions
   * that stored the rows (in turn, one from each version's trials in a random order that favours the trials that
   * were cheap to compute, {@link #picks}, so each stored code version is checked and the check's time stays near
   * the harmonic mean of the stored costs), and recomputed side by side on up to one thread per core on one BLAS
   * thread, as the runner computes trials. A trial that disagrees beyond the rule's tolerance, and that the rule does not name sensitive, is
   * recomputed under perturbations of rounding size ({@value #ULP_PROBES} seeded one-ulp perturbations of every
   * Cholesky input, then the other linear-algebra backend) until one moves it, to tell a chaotic trial from a
   * changed one. The store is read, never written.
   *
   * @throws IllegalArgumentException if k &lt; 1 or the store holds none of the experiment's trials
   */
  public <C extends Record, K extends Record> Verification verify(
      Experiment<C, K> exp, int k, long seed) {
    if (k < 1) {
      throw new IllegalArgumentException("need k >= 1 trials to verify, got " + k);
    }
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
    List<K> picks = picks(exp, rows, k, seed);
    if (picks.isEmpty()) {
      throw new IllegalArgumentException(exp.name() + ": no stored trial to verify (run it first)");
    }
    VerifyRule rule = exp.verifyRule();
    int threads = Math.min(picks.size(), Runtime.getRuntime().availableProcessors());
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    // one BLAS thread, as the rows were computed (Linalg.oneNativeThread)
    try (Linalg.Scope oneThread = Linalg.oneNativeThread()) {
      List<java.util.concurrent.Future<Map<String, Object>>> recomputed = new ArrayList<>();
      for (K key : picks) {
        recomputed.add(pool.submit(() -> recompute(exp, key, null)));
      }
      List<Verification.Outcome> outcomes = new ArrayList<>();
      java.util.LinkedHashSet<String> environment = new java.util.LinkedHashSet<>();
      Map<String, Object> here = RunEnvironment.current();
      for (int i = 0; i < picks.size(); i++) {
        K key = picks.get(i);
        String id = TrialKeys.id(key);
        ResultRow old = rows.get(id);
        String storedBy = String.valueOf(old.get(ResultRow.CODE_VERSION));
        environment.addAll(RunEnvironment.differences(old.values(), here));
        Map<String, Object> now;
        try {
          now = recomputed.get(i).get();
        } catch (java.util.concurrent.ExecutionException e) {
          outcomes.add(new Verification.Outcome(
              id,
              storedBy,
              Verification.Kind.DIFFERS,
              Double.POSITIVE_INFINITY,
              "",
              "the trial now fails: " + e.getCause()));
          continue;
        }
        outcomes.add(classify(exp, key, id, storedBy, old.values(), now, rule, pool));
      }
      return new Verification(exp.name(), outcomes, List.copyOf(environment));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while verifying " + exp.name(), e);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Up to {@code k} stored trials of {@code exp}, drawn from {@code seed}: the stored trials grouped by the code
   * version that stored them (groups in name order), each group put in a random order weighted by the inverse of
   * each trial's stored cost ({@link #storedSeconds}), then one from each group in turn.
   *
   * <p>The weighting keeps a check's time bounded whatever the seed: a trial of cost c comes first in its group with
   * probability (1/c)/Σ(1/cᵢ), so the first pick of a group costs on average the harmonic mean of its trials' costs
   * (in svbssgp-methods 5 s, against an arithmetic mean of 62 s and a largest of 588 s), and a trial 500 times
   * dearer than most is drawn about 500 times less often. Every trial still has a chance at every seed, so a store is
   * checked further at every commit; weighted sampling without replacement by the keys u^{c} of Efraimidis &amp;
   * Spirakis ("Weighted random sampling with a reservoir", Information Processing Letters 97(5), 2006, Algorithm A
   * with weight 1/c).
   */
  static <K extends Record> List<K> picks(
      Experiment<?, K> exp, Map<String, ResultRow> rows, int k, long seed) {
    java.util.TreeMap<String, List<K>> byVersion = new java.util.TreeMap<>();
    Map<K, Double> cost = new java.util.HashMap<>();
    for (K key : exp.trials()) {
      ResultRow r = rows.get(TrialKeys.id(key));
      if (r != null) {
        byVersion
            .computeIfAbsent(String.valueOf(r.get(ResultRow.CODE_VERSION)), v -> new ArrayList<>())
            .add(key);
        cost.put(key, storedSeconds(r.values()));
      }
    }
    // SplittableRandom mixes its seed: java.util.Random's first draw barely moves between
    // neighbouring seeds
    java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
    List<java.util.Iterator<K>> turns = new ArrayList<>();
    for (List<K> group : byVersion.values()) {
      // Efraimidis-Spirakis keys u^c, in logs c·log u; the largest first (a stable sort: ties keep
      // trial order)
      Map<K, Double> order = new java.util.HashMap<>();
      for (K key : group) {
        order.put(key, cost.get(key) * Math.log(1 - random.nextDouble()));
      }
      group.sort(java.util.Comparator.comparingDouble((K key) -> order.get(key)).reversed());
      turns.add(group.iterator());
    }
    List<K> out = new ArrayList<>();
    while (out.size() < k && !turns.isEmpty()) {
      for (java.util.Iterator<java.util.Iterator<K>> t = turns.iterator();
          t.hasNext() && out.size() < k; ) {
        java.util.Iterator<K> group = t.next();
        if (group.hasNext()) {
          out.add(group.next());
        } else {
          t.remove();
        }
      }
    }
    return out;
  }

  /** The least cost a trial is weighted by in {@link #picks}: a trial that took less counts as taking this long. */
  static final double LEAST_COST_SECONDS = 1.0;

  /**
   * A stored trial's cost in seconds, as its row recorded it: its {@code seconds} column if that is a number, else
   * the sum of its numeric columns named {@code *_seconds} or {@code seconds_*} (svbssgp's setup and training,
   * qp-mining's per method), never below {@value #LEAST_COST_SECONDS}; a row that recorded no time counts as
   * {@value #LEAST_COST_SECONDS}.
   */
  static double storedSeconds(Map<String, Object> row) {
    double total = 0;
    if (row.get("seconds") instanceof Number n) {
      total = n.doubleValue();
    } else {
      for (Map.Entry<String, Object> e : row.entrySet()) {
        String name = e.getKey();
        if ((name.endsWith("_seconds") || name.startsWith("seconds_"))
            && e.getValue() instanceof Number n) {
          total += n.doubleValue();
        }
      }
    }
    return Double.isFinite(total) ? Math.max(LEAST_COST_SECONDS, total) : LEAST_COST_SECONDS;
  }

  /**
   * One trial computed again, through the store's own encoding (so both sides have the types a stored row is
   * read back with), as it is ({@code probe} null) or under a rounding perturbation: {@code "ulp<i>"} (every
   * Cholesky input moved by one ulp per diagonal entry, {@link Linalg#withUlpPerturbation}, seeded by the trial id
   * and i) or a
   * backend's name (the other backend's order of summation).
   */
  private static <C extends Record, K extends Record> Map<String, Object> recompute(
      Experiment<C, K> exp, K key, String probe) throws Exception {
    ResultRow row;
    if (probe == null) {
      row = exp.trial().run(exp.config(), key);
    } else {
      Exception[] thrown = {null};
      java.util.function.Supplier<ResultRow> body = () -> {
        try {
          return exp.trial().run(exp.config(), key);
        } catch (Exception e) {
          thrown[0] = e;
          return null;
        }
      };
      row = probe.startsWith(ULP)
          ? Linalg.withUlpPerturbation(
              31L * TrialKeys.id(key).hashCode() + Integer.parseInt(probe.substring(ULP.length())),
              body)
          : Linalg.withBackend(probe, body);
      if (thrown[0] != null) {
        throw thrown[0];
      }
    }
    return JsonRows.read(JsonRows.write(withBackend(row).values()));
  }

  /** The probe that perturbs every Cholesky input by one ulp ({@link #recompute}), followed by its seed. */
  private static final String ULP = "ulp";

  /**
   * How many one-ulp perturbations (each with its own seed) a disagreeing trial is rerun under before the other
   * backend: a choice on a knife edge flips under about half of them, so four miss it one time in sixteen.
   */
  static final int ULP_PROBES = 4;

  private static <C extends Record, K extends Record> Verification.Outcome classify(
      Experiment<C, K> exp,
      K key,
      String id,
      String storedBy,
      Map<String, Object> stored,
      Map<String, Object> now,
      VerifyRule rule,
      java.util.concurrent.ExecutorService pool)
      throws InterruptedException {
    List<VerifyRule.ColumnCheck> checks = rule.compare(stored, now);
    VerifyRule.ColumnCheck widest = null;
    for (VerifyRule.ColumnCheck c : checks) {
      if (c.agreement() != VerifyRule.Agreement.IDENTICAL
          && (widest == null || c.gap() > widest.gap())) {
        widest = c;
      }
    }
    List<VerifyRule.ColumnCheck> beyond = VerifyRule.beyond(checks);
    double gap = widest == null ? 0 : widest.gap();
    String gapColumn = widest == null ? "" : widest.column();
    if (beyond.isEmpty()) {
      Verification.Kind kind =
          widest == null ? Verification.Kind.IDENTICAL : Verification.Kind.ROUNDING;
      return new Verification.Outcome(id, storedBy, kind, gap, gapColumn, "");
    }
    List<VerifyRule.ColumnCheck> unstable = beyond.stream()
        .filter(c -> rule.isStable(c.column(), stored.get(c.column())))
        .toList();
    if (!unstable.isEmpty()) {
      return new Verification.Outcome(
          id,
          storedBy,
          Verification.Kind.DIFFERS,
          gap,
          gapColumn,
          "a stable column changed: " + describe(unstable));
    }
    if (rule.isSensitive(stored)) {
      return new Verification.Outcome(
          id,
          storedBy,
          Verification.Kind.SENSITIVE,
          gap,
          gapColumn,
          rule.sensitiveDescription() + "; stable columns agree; " + describe(beyond));
    }
    // perturbations of rounding size, one after another until one moves the trial: one ulp on every
    // Cholesky input
    // under ULP_PROBES seeds (a discrete choice on a knife edge, e.g. a cross-validated penalty
    // between two tied
    // errors, flips under about half of them), then the other backend's summation order
    List<String> probes = new ArrayList<>();
    for (int i = 0; i < ULP_PROBES; i++) {
      probes.add(ULP + i);
    }
    String other = otherBackend();
    if (other != null) {
      probes.add(other);
    }
    // the largest relative move of each column under the probes: the trial's rounding spread
    Map<String, Double> spread = new java.util.HashMap<>();
    for (String probe : probes) {
      String label = probe.startsWith(ULP)
          ? "a one-ulp perturbation (seed " + probe.substring(ULP.length()) + ")"
          : probe;
      Map<String, Object> rerun;
      try {
        rerun = pool.submit(() -> recompute(exp, key, probe)).get();
      } catch (java.util.concurrent.ExecutionException e) {
        return new Verification.Outcome(
            id,
            storedBy,
            Verification.Kind.DIFFERS,
            gap,
            gapColumn,
            describe(beyond) + "; the rerun under " + label + " fails: " + e.getCause());
      }
      List<VerifyRule.ColumnCheck> probed = rule.compare(now, rerun);
      for (VerifyRule.ColumnCheck c : probed) {
        spread.merge(c.column(), c.gap(), Math::max);
      }
      List<VerifyRule.ColumnCheck> moved = VerifyRule.beyond(probed);
      if (!moved.isEmpty()) {
        VerifyRule.ColumnCheck m = moved.get(0);
        return new Verification.Outcome(
            id,
            storedBy,
            Verification.Kind.SENSITIVE,
            gap,
            gapColumn,
            "found by rerun: under " + label + " its " + m.column()
                + " moves beyond rounding too (here " + m.stored() + ", rerun " + m.now()
                + "); stable columns agree; " + describe(beyond));
      }
    }
    // an iterative fit carries rounding to its end point with a gain no a-priori bound gives
    // (an L-BFGS end point is fixed only to its stopping rule): a disagreement within
    // MEASURED_ROUNDING_FACTOR of the spread the reruns show is rounding of this trial's size
    boolean withinSpread = true;
    StringBuilder spreads = new StringBuilder();
    for (VerifyRule.ColumnCheck c : beyond) {
      double s = spread.getOrDefault(c.column(), 0.0);
      withinSpread &= c.gap() <= MEASURED_ROUNDING_FACTOR * s;
      if (spreads.length() > 0) {
        spreads.append("; ");
      }
      spreads
          .append(c.column())
          .append(
              String.format(java.util.Locale.ROOT, " %.1e from the row, reruns %.1e", c.gap(), s));
    }
    if (withinSpread) {
      return new Verification.Outcome(
          id,
          storedBy,
          Verification.Kind.ROUNDING,
          gap,
          gapColumn,
          "beyond the column's tolerance but within " + (int) MEASURED_ROUNDING_FACTOR
              + "x of what reruns under rounding perturbations move it: " + spreads);
    }
    return new Verification.Outcome(
        id,
        storedBy,
        Verification.Kind.DIFFERS,
        gap,
        gapColumn,
        describe(beyond) + " (reruns under " + ULP_PROBES + " one-ulp perturbations"
            + (other == null ? "" : " and " + other)
            + " reproduce today's row within rounding, the row lies beyond "
            + (int) MEASURED_ROUNDING_FACTOR + "x their spread (" + spreads
            + "): a change, not rounding)");
  }

  /**
   * How far beyond its own rounding spread a disagreeing column may lie and still count as rounding: a row computed
   * on another BLAS kernel is one more draw of the perturbations the reruns make, so it lies within a small factor
   * of their largest move (measured on 1,000 Glass EP fits whose rows another kernel stored: the rows lie at most
   * 2.4x the largest move of five reruns), while a change of code moves a trial by its own amount, unrelated to
   * rounding. A change smaller than this times the trial's rounding spread is below what the trial determines.
   */
  static final double MEASURED_ROUNDING_FACTOR = 10;

  /** The backend to rerun a trial on to perturb its rounding: the one the process does not use; null if none. */
  private static String otherBackend() {
    if (Linalg.defaultBackendName().equals("native")) {
      return "ejml";
    }
    return Linalg.nativeAvailable() ? "native" : null;
  }

  private static String describe(List<VerifyRule.ColumnCheck> columns) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < Math.min(3, columns.size()); i++) {
      VerifyRule.ColumnCheck c = columns.get(i);
      if (i > 0) {
        s.append("; ");
      }
      s.append(c.column())
          .append(": stored ")
          .append(c.stored())
          .append(", now ")
          .append(c.now());
    }
    if (columns.size() > 3) {
      s.append("; and ").append(columns.size() - 3).append(" more columns");
    }
    return s.toString();
  }

  /**
   * The row with the {@link RunEnvironment} columns: a {@value ResultRow#CODE_VERSION} column naming the code
   * ({@link CodeVersion}), a {@value ResultRow#BACKEND} column naming the dense linear-algebra backend
   * ({@link Linalg#defaultBackendName()}: the trials run on executor threads, which use the process
   * default), the BLAS library and kernel, its thread count and the JDK, unless the trial wrote such a column
   * itself. The backend is deliberately not part of the
   * config hash: results computed with EJML and with OpenBLAS agree to rounding, so a run with the other
   * backend resumes the same results file instead of discarding it; nor is the code version, so that
   * {@link #verify} can hold stored rows to today's code instead of silently recomputing them.
   */
  static ResultRow withBackend(ResultRow row) {
    LinkedHashMap<String, Object> m = new LinkedHashMap<>(row.values());
    RunEnvironment.current().forEach(m::putIfAbsent);
    return ResultRow.ofRaw(m);
  }
}
