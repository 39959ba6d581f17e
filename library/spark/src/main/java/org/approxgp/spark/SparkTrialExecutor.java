package org.approxgp.spark;

import java.io.IOException;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SimpleFutureAction;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.approxgp.experiment.ConfigHash;
import org.approxgp.experiment.Engines;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ExperimentRegistry;
import org.approxgp.experiment.ResultRow;
import org.approxgp.experiment.TrialExecutor;
import org.approxgp.experiment.TrialKeys;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction0;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * Runs each pending trial of an experiment as one Spark task. A task carries the experiment's name, its
 * config (as JSON) and one trial id — never the trial function, which does not serialise — and the
 * executor rebuilds the experiment from the {@link ExperimentRegistry} (so the experiment must be
 * registered, by the papers' catalog or an {@link org.approxgp.experiment.ExperimentCatalog} of one's
 * own JAR). Results stream back to the driver as each task finishes, and the callback runs on the
 * calling thread, so the {@link org.approxgp.experiment.Runner} appends every row to the same results
 * file at once: resume after a killed driver, a changed config and a torn last line behave as with the
 * local executor, and the rows are bit for bit those of the local executor (same code, same seeds).
 *
 * <p>Failures: an exception thrown by a trial is deterministic (same config and key, same exception), so
 * the task catches it and the trial is reported failed at once with its key and the executor's stack
 * trace ({@link RemoteTrialException}); an {@link Error} or a lost executor fails the Spark task, which
 * Spark retries up to {@code spark.task.maxFailures} (a cluster's default is 4; {@code local[N]} gives
 * 1, {@code local[N,F]} F); if Spark gives up, every trial not yet reported is reported failed with
 * Spark's reason. An interrupt of the calling thread cancels the job.
 */
public final class SparkTrialExecutor implements TrialExecutor {

  private final String master;
  private volatile JavaSparkContext context;

  private SparkTrialExecutor(JavaSparkContext context, String master) {
    this.context = context;
    this.master = master;
  }

  /** Runs on {@code sc}, which the caller owns (and stops). */
  public static SparkTrialExecutor on(JavaSparkContext sc) {
    return new SparkTrialExecutor(Objects.requireNonNull(sc, "sc"), null);
  }

  /**
   * Runs on the active Spark context, or on one created at first use: on {@code master} if not null,
   * else on {@code spark.master} when set (by {@code spark-submit}), else embedded {@code local[*]}.
   * A local master binds the driver to 127.0.0.1 only, and the web UI is off unless
   * {@code spark.ui.enabled} says otherwise. The context lives until the JVM exits (Spark stops it
   * from a shutdown hook).
   */
  public static SparkTrialExecutor embedded(String master) {
    return new SparkTrialExecutor(null, master);
  }

  /** The Spark configuration {@link #embedded} starts a context with. */
  static SparkConf conf(String master) {
    SparkConf conf = new SparkConf().setAppName("approxgp");
    if (master != null) {
      conf.setMaster(master);
    } else if (!conf.contains("spark.master")) {
      conf.setMaster("local[*]");
    }
    if (conf.get("spark.master").startsWith("local")) {
      conf.setIfMissing("spark.driver.bindAddress", "127.0.0.1");
      conf.setIfMissing("spark.driver.host", "127.0.0.1");
    }
    conf.setIfMissing("spark.ui.enabled", "false");
    conf.setIfMissing("spark.ui.showConsoleProgress", "false");
    return conf;
  }

  /**
   * Starts the Spark context now (see {@link #context()}), so that a master that cannot be reached fails the run
   * before its results store is opened. A URL of no form Spark knows is refused first ({@link #checkForm}), and a
   * {@code spark://} master is probed over TCP (every host of a high-availability list, 5 s each): Spark itself
   * would retry an unreachable master for a minute and log each attempt. Any failure to start is one line.
   *
   * @throws Engines.EngineUnavailableException naming the master and the reason
   */
  @Override
  public void start() {
    if (context != null) {
      return;
    }
    String m = master != null ? master : new SparkConf().get("spark.master", null);
    if (m != null) {
      checkForm(m);
    }
    if (m != null && m.startsWith("spark://")) {
      probe(m);
    }
    try {
      context();
    } catch (Exception e) { // Scala code throws checked exceptions undeclared (SparkException)
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      String why = String.valueOf(root.getMessage())
          .lines()
          .findFirst()
          .orElse(root.getClass().getSimpleName());
      throw new Engines.EngineUnavailableException(
          "Spark could not start" + (m == null ? "" : " on master " + m) + ": " + why);
    }
  }

  /** The master URLs Spark 4 starts a context on (its {@code SparkMasterRegex}, plus YARN and Kubernetes). */
  private static final java.util.regex.Pattern MASTER_FORMS = java.util.regex.Pattern.compile(
      "local|local\\[([0-9]+|\\*)(\\s*,\\s*[0-9]+)?\\]|local-cluster\\[.*\\]|spark://.+|yarn|k8s://.+");

  /**
   * Refuses a master URL of no form Spark knows, before Spark is asked: Spark would log its failure to start with
   * a stack trace.
   *
   * @throws Engines.EngineUnavailableException naming the URL and the forms
   */
  static void checkForm(String url) {
    if (!MASTER_FORMS.matcher(url.strip()).matches()) {
      throw new Engines.EngineUnavailableException("Spark master '" + url + "' is not a master URL"
          + " (local, local[N], local[*], spark://HOST:PORT[,HOST:PORT…], yarn or k8s://…)");
    }
  }

  /**
   * Checks that at least one host:port of a {@code spark://h1:p1[,h2:p2…]} URL accepts a TCP connection.
   *
   * @throws Engines.EngineUnavailableException if none does
   */
  static void probe(String url) {
    List<String> failures = new ArrayList<>();
    for (String hostPort : url.substring("spark://".length()).split(",")) {
      int colon = hostPort.lastIndexOf(':');
      String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
      int port;
      try {
        port = colon < 0 ? 7077 : Integer.parseInt(hostPort.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new Engines.EngineUnavailableException(
            "Spark master " + url + ": bad port in '" + hostPort + "'");
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(host, port), 5000);
        return;
      } catch (IOException | IllegalArgumentException e) {
        failures.add(host + ":" + port + " "
            + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
      }
    }
    throw new Engines.EngineUnavailableException(
        "Spark master " + url + " is unreachable (" + String.join("; ", failures)
            + "); is the master running, and is the URL the one its log prints?");
  }

  /** The Spark context, created on first use by an {@link #embedded} executor. */
  public JavaSparkContext context() {
    JavaSparkContext c = context;
    if (c == null) {
      synchronized (this) {
        c = context;
        if (c == null) {
          c = inModuleLoader(
              () -> JavaSparkContext.fromSparkContext(SparkContext.getOrCreate(conf(master))));
          context = c;
        }
      }
    }
    return c;
  }

  /**
   * Runs {@code body} with this module's class loader as the thread's context class loader. When the engine is
   * loaded on demand ({@link org.approxgp.experiment.Engines}: a class loader of its own under the library's, as
   * in a notebook kernel) Spark resolves the module's classes through the context class loader — its executors'
   * class loader is a child of the one current when the context starts, and the threads it starts inherit it —
   * and a caller's (JShell's) loader does not see them.
   */
  static <T> T inModuleLoader(java.util.function.Supplier<T> body) {
    Thread t = Thread.currentThread();
    ClassLoader before = t.getContextClassLoader();
    t.setContextClassLoader(SparkTrialExecutor.class.getClassLoader());
    try {
      return body.get();
    } finally {
      t.setContextClassLoader(before);
    }
  }

  @Override
  public <C extends Record, K extends Record> void execute(
      Experiment<C, K> experiment, List<K> pending, Callback<K> callback)
      throws InterruptedException {
    if (pending.isEmpty()) {
      return;
    }
    Thread t = Thread.currentThread();
    ClassLoader before = t.getContextClassLoader();
    t.setContextClassLoader(SparkTrialExecutor.class.getClassLoader());
    try {
      run(experiment, pending, callback);
    } finally {
      t.setContextClassLoader(before);
    }
  }

  private <C extends Record, K extends Record> void run(
      Experiment<C, K> experiment, List<K> pending, Callback<K> callback)
      throws InterruptedException {
    String configClass = experiment.config().getClass().getName();
    String json = ConfigCodec.encode(experiment.config());
    String canonical = ConfigHash.canonical(experiment.config());
    checkRebuildable(experiment, configClass, json, canonical, pending);
    List<TrialTask> tasks = new ArrayList<>(pending.size());
    List<Object> partitions = new ArrayList<>(pending.size());
    for (int i = 0; i < pending.size(); i++) {
      tasks.add(new TrialTask(
          i, experiment.name(), configClass, json, canonical, TrialKeys.id(pending.get(i))));
      partitions.add(i);
    }
    SparkContext sc = context().sc();
    // one trial per partition, so each result reaches the driver (and the results file) as soon as
    // it is done
    JavaRDD<TrialTask> rdd = context().parallelize(tasks, tasks.size());
    BlockingQueue<TrialOutcome> outcomes = new LinkedBlockingQueue<>();
    SimpleFutureAction<BoxedUnit> job = sc.submitJob(
        rdd.rdd(), new RunTrials(), toSeq(partitions), new Collect(outcomes), new Unit());
    boolean[] reported = new boolean[pending.size()];
    int count = 0;
    try {
      while (count < pending.size()) {
        TrialOutcome o = outcomes.poll(100, TimeUnit.MILLISECONDS);
        if (o == null && job.isCompleted()) {
          o = outcomes.poll(); // every handler has run before the job completes
          if (o == null) {
            failRemaining(job, pending, reported, callback);
            return;
          }
        }
        if (o == null || reported[o.index()]) {
          continue;
        }
        reported[o.index()] = true;
        count++;
        K key = pending.get(o.index());
        if (o.isFailure()) {
          callback.failed(key, o.failure());
        } else {
          ResultRow row;
          try {
            row = o.row();
          } catch (IllegalStateException e) {
            callback.failed(key, e);
            continue;
          }
          callback.finished(key, row);
        }
      }
    } catch (InterruptedException e) {
      job.cancel();
      throw e;
    }
  }

  private static <K extends Record> void failRemaining(
      SimpleFutureAction<BoxedUnit> job,
      List<K> pending,
      boolean[] reported,
      Callback<K> callback) {
    Throwable cause = job.value().isDefined() && job.value().get().isFailure()
        ? job.value().get().failed().get()
        : new IllegalStateException("the Spark job ended without a result");
    for (int i = 0; i < pending.size(); i++) {
      if (!reported[i]) {
        callback.failed(
            pending.get(i),
            new RemoteTrialException(
                "trial " + TrialKeys.id(pending.get(i)) + ": Spark gave up on its task: " + cause,
                cause));
      }
    }
  }

  /** Fails fast, on the driver, when executors could not rebuild the experiment from the registry. */
  private static void checkRebuildable(
      Experiment<?, ?> experiment,
      String configClass,
      String json,
      String canonical,
      List<? extends Record> pending) {
    Rebuilt r = Rebuilt.of(experiment.name(), configClass, json, canonical);
    for (Record k : pending) {
      String id = TrialKeys.id(k);
      if (!r.keys().containsKey(id)) {
        throw new IllegalArgumentException(
            "experiment " + experiment.name() + " as rebuilt from the registry has " + "no trial "
                + id + "; only registered experiments (an ExperimentCatalog) run on Spark");
      }
    }
  }

  @Override
  public String toString() {
    JavaSparkContext c = context;
    return "spark(" + (c != null ? c.master() : master != null ? master : "embedded") + ")";
  }

  private static scala.collection.immutable.Seq<Object> toSeq(List<Object> list) {
    return scala.jdk.javaapi.CollectionConverters.asScala(list).toSeq();
  }

  /** An experiment rebuilt from the registry in this JVM, with its keys by id; cached per JVM. */
  record Rebuilt(Experiment<?, ?> experiment, Map<String, Record> keys) {
    private static final Map<String, Rebuilt> CACHE = new ConcurrentHashMap<>();

    static Rebuilt of(String name, String configClass, String json, String canonical) {
      return CACHE.computeIfAbsent(name + "\n" + configClass + "\n" + canonical, k -> {
        Record config = ConfigCodec.decode(configClass, json, canonical);
        Experiment<?, ?> e = ExperimentRegistry.rebuild(name, config);
        Map<String, Record> keys = new HashMap<>();
        for (Record key : e.trials()) {
          keys.put(TrialKeys.id(key), key);
        }
        return new Rebuilt(e, keys);
      });
    }

    @SuppressWarnings("unchecked")
    <C extends Record, K extends Record> ResultRow run(String trialId) throws Exception {
      Experiment<C, K> e = (Experiment<C, K>) experiment;
      K key = (K) keys.get(trialId);
      if (key == null) {
        throw new IllegalArgumentException("experiment " + e.name() + " has no trial " + trialId);
      }
      ResultRow row = e.trial().run(e.config(), key);
      if (row == null) {
        throw new IllegalStateException("trial returned null");
      }
      return row;
    }
  }

  /** The task body, on an executor: one partition holds one trial. */
  static final class RunTrials extends AbstractFunction1<Iterator<TrialTask>, TrialOutcome>
      implements Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public TrialOutcome apply(Iterator<TrialTask> it) {
      TrialTask t = it.next();
      if (it.hasNext()) {
        throw new IllegalStateException("a partition must hold one trial");
      }
      try {
        Rebuilt r =
            Rebuilt.of(t.experimentName(), t.configClass(), t.configJson(), t.configCanonical());
        return TrialOutcome.ok(t.index(), t.trialId(), r.run(t.trialId()));
      } catch (Exception e) {
        // deterministic given (config, key): report it rather than let Spark retry; Errors fail the
        // task
        return TrialOutcome.failed(t.index(), t.trialId(), e);
      }
    }
  }

  /** On the driver (Spark's scheduler thread): queues each outcome for the calling thread. */
  private static final class Collect extends AbstractFunction2<Object, TrialOutcome, BoxedUnit> {
    private final BlockingQueue<TrialOutcome> queue;

    Collect(BlockingQueue<TrialOutcome> queue) {
      this.queue = queue;
    }

    @Override
    public BoxedUnit apply(Object partition, TrialOutcome outcome) {
      queue.add(outcome);
      return BoxedUnit.UNIT;
    }
  }

  private static final class Unit extends AbstractFunction0<BoxedUnit> {
    @Override
    public BoxedUnit apply() {
      return BoxedUnit.UNIT;
    }
  }
}
