package org.approxgp.linalg;

import java.util.List;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Which dense backend {@link Matrix} and {@link Cholesky} use.
 *
 * <p>{@code -Dapproxgp.linalg=ejml|native} selects it; without the property the native backend
 * (OpenBLAS through JavaCPP) is used when its library loads, and EJML (pure Java) otherwise, with one
 * log line saying why. {@code -Dapproxgp.linalg=native} on a machine where the library cannot load
 * falls back the same way (logged), so a run never fails for want of a native library.
 * {@code -Dapproxgp.linalg.threads=N} sets the OpenBLAS thread count (default 1: trials already run
 * in parallel, so more BLAS threads would oversubscribe the cores; a single large fit gains from N = cores,
 * e.g. EP on Ionosphere 19.5 → 12.5 ms on 2 cores, {@code bin/bench classification}, with numbers that
 * differ at rounding level; the experiment runner ignores it, {@link #oneNativeThread}).
 * {@code -Dapproxgp.linalg.crossover=N}
 * sets the problem size below which the native backend hands the work to the pure-Java code (default
 * {@value #DEFAULT_CROSSOVER}, measured with {@code bin/bench linalg}: below it JNI and array copies
 * cost more than the native kernels save).
 *
 * <p>{@link #withBackend} runs a piece of code with another backend on the calling thread only
 * (benchmarks and tests that compare the backends side by side in one JVM).
 */
public final class Linalg {
  /** The system property selecting the backend. */
  public static final String PROPERTY = "approxgp.linalg";
  /** Default crossover size, see the class comment. */
  public static final int DEFAULT_CROSSOVER = 16;

  private static final Logger LOG = Logger.getLogger(Linalg.class.getName());
  private static final ThreadLocal<DenseBackend> OVERRIDE = new ThreadLocal<>();

  private Linalg() {}

  /** Lazily loaded native backend, or the reason it is unavailable. */
  private static final class Native {
    static final NativeBackend BACKEND;
    static final String ERROR;

    static {
      NativeBackend b = null;
      String err = null;
      try {
        b = new NativeBackend(
            Integer.getInteger(PROPERTY + ".threads", 1),
            Integer.getInteger(PROPERTY + ".crossover", DEFAULT_CROSSOVER));
      } catch (
          Throwable
              t) { // UnsatisfiedLinkError, NoClassDefFoundError, ExceptionInInitializerError, ...
        err = t.toString();
      }
      BACKEND = b;
      ERROR = err;
    }
  }

  /** The process-wide default, resolved once from the system properties. */
  private static final class Default {
    static final DenseBackend BACKEND = resolve(System.getProperty(PROPERTY, "").trim());

    private static DenseBackend resolve(String wanted) {
      if (wanted.equals("ejml")) {
        return JavaBackend.INSTANCE;
      }
      if (!wanted.isEmpty() && !wanted.equals("native")) {
        throw new IllegalArgumentException(
            "-D" + PROPERTY + "=" + wanted + ": expected ejml or native");
      }
      if (Native.BACKEND != null) {
        return Native.BACKEND;
      }
      LOG.warning("approxgp linalg: native OpenBLAS backend unavailable (" + Native.ERROR
          + "); using the pure-Java EJML backend");
      return JavaBackend.INSTANCE;
    }
  }

  /** The backends this library knows, in the order benchmarks print them. */
  public static List<String> backendNames() {
    return List.of("ejml", "native");
  }

  /** True if the native backend's library loaded. */
  public static boolean nativeAvailable() {
    return Native.BACKEND != null;
  }

  /** Why the native backend is unavailable (null when it is available). */
  public static String nativeUnavailableReason() {
    return Native.ERROR;
  }

  /**
   * The BLAS library behind the native backend and the kernel it runs: its version, and the core type — the one
   * {@code OPENBLAS_CORETYPE} forces when the environment sets it (OpenBLAS's dynamic-architecture build obeys it),
   * else "auto" with the processor OpenBLAS detects it from (model name and whether it has AVX-512, which decides
   * between OpenBLAS's SkylakeX/Cooperlake and Haswell/Zen kernels). This library only reads the variable, never
   * sets it. "none" when the native backend is unavailable.
   */
  public static String blasDescription() {
    if (!nativeAvailable()) {
      return "none";
    }
    String forced = System.getenv("OPENBLAS_CORETYPE");
    String core = forced != null && !forced.isBlank()
        ? "core " + forced.strip() + " (OPENBLAS_CORETYPE)"
        : "core auto on " + Cpu.DESCRIPTION;
    return NativeBackend.version() + ", " + core;
  }

  /** The processor, read once from {@code /proc/cpuinfo} (Linux); "unknown cpu" elsewhere. */
  private static final class Cpu {
    static final String DESCRIPTION = read();

    private static String read() {
      try {
        String model = null;
        boolean avx512 = false;
        for (String line :
            java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/cpuinfo"))) {
          if (model == null && line.startsWith("model name")) {
            model = line.substring(line.indexOf(':') + 1).strip();
          }
          if (line.startsWith("flags") && line.contains(" avx512f")) {
            avx512 = true;
          }
        }
        return (model == null ? "unknown cpu" : model) + (avx512 ? " (avx512f)" : " (no avx512f)");
      } catch (java.io.IOException | RuntimeException e) {
        return "unknown cpu";
      }
    }
  }

  /** The number of threads OpenBLAS uses (0 when the native backend is unavailable). */
  public static int nativeThreads() {
    return nativeAvailable() ? NativeBackend.threads() : 0;
  }

  /**
   * Sets the number of threads OpenBLAS uses, for the whole process (every thread's native calls), and
   * returns the previous count. More than 1 pays only for one large problem at a time: with trials already
   * running in parallel on every core (the experiment runner) it oversubscribes the cores.
   *
   * @throws IllegalStateException if the native backend is unavailable
   * @throws IllegalArgumentException if {@code threads} &lt; 1
   */
  public static synchronized int setNativeThreads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("OpenBLAS threads must be >= 1, got " + threads);
    }
    if (!nativeAvailable()) {
      throw new IllegalStateException("native backend unavailable: " + Native.ERROR);
    }
    int previous = NativeBackend.threads();
    NativeBackend.setThreads(threads);
    return previous;
  }

  /** The name of the backend the calling thread uses: {@code "ejml"} or {@code "native"}. */
  public static String backendName() {
    return current().name();
  }

  /** The name of the process-wide default backend (what threads without {@link #withBackend} use). */
  public static String defaultBackendName() {
    return Default.BACKEND.name();
  }

  /**
   * Whether the calling thread computes under {@link #withBackend} or {@link #withUlpPerturbation}, that is, with
   * other rounding than the process default's. A cache of results computed under the default rounding must not
   * serve such a computation: the experiment verifier reruns a trial under a perturbation to see whether it moves,
   * and a cached intermediate (a cross-validation grid) handed back unperturbed could never move.
   */
  public static boolean overridden() {
    return OVERRIDE.get() != null;
  }

  static DenseBackend current() {
    DenseBackend b = OVERRIDE.get();
    return b != null ? b : Default.BACKEND;
  }

  static DenseBackend byName(String name) {
    switch (name) {
      case "ejml":
        return JavaBackend.INSTANCE;
      case "native":
        if (Native.BACKEND == null) {
          throw new IllegalStateException("native backend unavailable: " + Native.ERROR);
        }
        return Native.BACKEND;
      default:
        throw new IllegalArgumentException(
            "unknown linalg backend '" + name + "'; expected one of " + backendNames());
    }
  }

  /**
   * Runs {@code body} on the calling thread with the named backend, then restores the previous one.
   *
   * @throws IllegalStateException if {@code name} is "native" and the native library did not load
   */
  public static <T> T withBackend(String name, Supplier<T> body) {
    return with(byName(name), body);
  }

  /**
   * Runs {@code body} on the calling thread with the backend it would use, except that every Cholesky
   * factorisation's input is first moved by one ulp per diagonal entry, up or down by a coin seeded with
   * {@code seed} ({@link UlpPerturbedBackend}): a perturbation of rounding size, which leaves a stable computation
   * within rounding of its unperturbed result and sends a chaotic one elsewhere. The experiment verifier uses it to
   * tell a trial that is sensitive to rounding from one whose code changed.
   */
  public static <T> T withUlpPerturbation(long seed, Supplier<T> body) {
    return with(new UlpPerturbedBackend(current(), seed), body);
  }

  static <T> T with(DenseBackend backend, Supplier<T> body) {
    DenseBackend previous = OVERRIDE.get();
    OVERRIDE.set(backend);
    try {
      return body.get();
    } finally {
      if (previous == null) {
        OVERRIDE.remove();
      } else {
        OVERRIDE.set(previous);
      }
    }
  }

  /** A scope that {@link #close}s without a checked exception. */
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }

  private static int pinned; // scopes of oneNativeThread open now
  private static int unpinned; // the count to restore when the last closes

  /**
   * Holds OpenBLAS at one thread until the returned scope closes, then restores the count it had (scopes
   * nest and may overlap across threads; the count is restored when the last one closes). The experiment
   * runner computes and verifies its trials inside one, so that a stored row never depends on the BLAS
   * thread count ({@code -Dapproxgp.linalg.threads}): a multi-threaded BLAS splits its sums differently,
   * and a row computed that way would not reproduce to the bit on one thread. A no-op without the native
   * backend.
   */
  public static Scope oneNativeThread() {
    if (!nativeAvailable()) {
      return () -> {};
    }
    synchronized (Linalg.class) {
      if (pinned++ == 0) {
        unpinned = setNativeThreads(1);
      }
    }
    boolean[] closed = {false};
    return () -> {
      synchronized (Linalg.class) {
        if (!closed[0]) {
          closed[0] = true;
          if (--pinned == 0) {
            setNativeThreads(unpinned);
          }
        }
      }
    };
  }
}
