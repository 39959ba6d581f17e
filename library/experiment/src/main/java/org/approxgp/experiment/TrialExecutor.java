package org.approxgp.experiment;

import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where a {@link Runner} computes the trials not yet in the results file. The runner owns the
 * results store, the ordering of rows and progress; an executor only evaluates
 * {@code experiment.trial().run(experiment.config(), key)} for each pending key and reports each
 * outcome through the callback. The default is {@link #local(int)}, a fixed thread pool in this JVM;
 * the {@code approxgp-spark} module implements this interface to spread the trials over a cluster
 * (shipping the experiment's name, config and keys, calling back on the driver as results stream in),
 * and {@link Engines} finds such an engine on the class path by name.
 *
 * <p>Contract: call the callback exactly once per pending key, from the thread that called
 * {@link #execute}, one call at a time, in any order; a trial that throws (or returns null) is
 * reported with {@link Callback#failed}. Return when every key has been reported. On interrupt,
 * stop the remaining work and throw {@link InterruptedException}.
 */
public interface TrialExecutor {

  <C extends Record, K extends Record> void execute(
      Experiment<C, K> experiment, List<K> pending, Callback<K> callback)
      throws InterruptedException;

  /**
   * Gets the engine ready before the runner opens the results store (a cluster engine connects to its master
   * here), so that an engine that cannot start fails before anything is written. Idempotent; the local pool
   * needs nothing.
   *
   * @throws Engines.EngineUnavailableException with one line saying why, if the engine cannot start
   */
  default void start() {}

  /** Receives each finished trial; the runner appends it to the results file at once. */
  interface Callback<K extends Record> {
    void finished(K key, ResultRow row);

    void failed(K key, Throwable cause);
  }

  /** A fixed pool of {@code threads} daemon threads in this JVM (at most one per pending trial). */
  static TrialExecutor local(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    return new TrialExecutor() {
      @Override
      public <C extends Record, K extends Record> void execute(
          Experiment<C, K> exp, List<K> pending, Callback<K> callback) throws InterruptedException {
        if (pending.isEmpty()) {
          return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(
            Math.min(threads, pending.size()), daemonThreads(exp.name()));
        CompletionService<ResultRow> cs = new ExecutorCompletionService<>(pool);
        java.util.Map<Future<ResultRow>, K> keyOf = new java.util.HashMap<>();
        try {
          for (K k : pending) {
            keyOf.put(
                cs.submit(() -> {
                  ResultRow row = exp.trial().run(exp.config(), k);
                  if (row == null) {
                    throw new IllegalStateException("trial returned null");
                  }
                  return row;
                }),
                k);
          }
          for (int i = 0; i < pending.size(); i++) {
            Future<ResultRow> f = cs.take();
            K k = keyOf.get(f);
            ResultRow row;
            try {
              row = f.get();
            } catch (ExecutionException e) {
              callback.failed(k, e.getCause());
              continue;
            }
            callback.finished(k, row);
          }
        } finally {
          pool.shutdownNow();
        }
      }

      @Override
      public String toString() {
        return "local(" + threads + " threads)";
      }
    };
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
