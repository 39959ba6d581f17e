package org.approxgp.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Linalg;
import org.approxgp.linalg.Matrix;

/**
 * Benchmark (not a test): GFLOP/s of Cholesky (n³/3 flops), TRSM (L X = B, B n × n: n³ flops) and SYRK
 * (Aᵀ A, A n × n: n³ flops, one triangle) through the public {@code linalg} API, each backend side by side
 * in one JVM, as a fraction of this machine's peak (computed from /proc/cpuinfo and printed). The small sizes
 * where the native call overhead matters, which set {@link Linalg#DEFAULT_CROSSOVER}, are JMH's:
 * {@code bin/bench micro SmallLinalg} ({@link org.approxgp.bench.jmh.SmallLinalg}). Run
 * {@code JAVA_OPTS=-Dapproxgp.linalg.threads=2 bin/bench linalg} for two BLAS threads.
 *
 * <p>Run: {@code bin/bench linalg [n,n,...] [seconds per cell]}.
 */
public final class LinalgBench {

  private LinalgBench() {}

  public static void main(String[] args) throws IOException {
    int[] sizes = args.length > 0 ? parse(args[0]) : new int[] {300, 1000, 2000, 4000};
    double budget = args.length > 1 ? Double.parseDouble(args[1]) : 1.0;
    Peak peak = Peak.detect();
    System.out.println(peak.explanation());
    List<String> backends = new ArrayList<>();
    backends.add("ejml");
    if (Linalg.nativeAvailable()) {
      backends.add("native");
    } else {
      System.out.println("native backend unavailable: " + Linalg.nativeUnavailableReason());
    }
    System.out.printf(
        Locale.ROOT,
        "default backend: %s; OpenBLAS threads: %d; crossover: %s%n",
        Linalg.backendName(),
        Linalg.nativeThreads(),
        System.getProperty("approxgp.linalg.crossover", "default " + Linalg.DEFAULT_CROSSOVER));
    System.out.println(
        "(shared machine: other processes compete for the 2 cores, so figures are noisy; best of"
            + " repeats within " + budget
            + " s per cell, after a JIT warm-up of every operation at n = 200)");
    warmUp(backends);
    System.out.println(
        "GF/s by wall time (% of one core's peak, % of both cores') and by the calling thread's CPU"
            + " time (% of one core; excludes time other processes held the core, meaningful with 1 BLAS thread)");
    int cores = Runtime.getRuntime().availableProcessors();
    boolean multi = Linalg.nativeAvailable() && cores > 1;
    System.out.printf(
        Locale.ROOT,
        "%-8s %5s  %-21s %-13s %-21s %-13s %-10s%s%n",
        "op",
        "n",
        "ejml wall",
        "ejml cpu",
        "native wall",
        "native cpu",
        "native/ejml (wall)",
        multi
            ? String.format(
                Locale.ROOT,
                "   native, %d BLAS threads: wall (%% of one core's peak, %% of all" + " cores')",
                cores)
            : "");
    for (int n : sizes) {
      Matrix g = random(n, n, n);
      Matrix a = g.multTransB(g);
      a.addDiagonal(n);
      Cholesky chol = Cholesky.factor(a);
      Matrix b = random(n, n, n + 1);
      for (String op : new String[] {"cholesky", "trsm", "syrk"}) {
        double flops = op.equals("cholesky") ? n * (double) n * n / 3 : n * (double) n * n;
        Supplier<Object> body = switch (op) {
          case "cholesky" -> () -> Cholesky.factor(a);
          case "trsm" -> () -> chol.solveLower(b);
          default -> g::gram;
        };
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-8s %5d ", op, n));
        double[] gf = new double[backends.size()];
        for (int i = 0; i < backends.size(); i++) {
          double[] sec = Linalg.withBackend(backends.get(i), () -> bestWallAndCpu(body, budget));
          gf[i] = flops / sec[0] * 1e-9;
          double cpu = flops / sec[1] * 1e-9;
          line.append(String.format(
              Locale.ROOT,
              " %6.2f (%4.1f%% %4.1f%%)  %6.2f (%4.1f%%) ",
              gf[i],
              100 * gf[i] / peak.perCore(),
              100 * gf[i] / peak.total(),
              cpu,
              100 * cpu / peak.perCore()));
        }
        if (gf.length == 2) {
          line.append(String.format(Locale.ROOT, " %5.1fx", gf[1] / gf[0]));
        }
        if (multi) { // one problem alone on the machine: OpenBLAS on every core (process-wide,
          // restored after)
          int before = Linalg.setNativeThreads(cores);
          try {
            double[] sec = Linalg.withBackend("native", () -> bestWallAndCpu(body, budget));
            double all = flops / sec[0] * 1e-9;
            line.append(String.format(
                Locale.ROOT,
                "              %6.2f (%5.1f%% %4.1f%%)",
                all,
                100 * all / peak.perCore(),
                100 * all / peak.total()));
          } finally {
            Linalg.setNativeThreads(before);
          }
        }
        System.out.println(line);
      }
    }
    System.out.println();
    System.out.println(
        "small sizes (microseconds per call, which set the crossover): bin/bench micro SmallLinalg (JMH)");
  }

  /** Runs every benchmarked operation on every backend for a while so that the JIT has compiled the Java paths. */
  static void warmUp(List<String> backends) {
    int n = 200;
    Matrix g = random(n, n, 1);
    Matrix a = g.multTransB(g);
    a.addDiagonal(n);
    Matrix b = random(n, n, 2);
    for (String be : backends) {
      Linalg.withBackend(be, () -> {
        long end = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < end) {
          Cholesky c = Cholesky.factor(a);
          c.solveLower(b);
          g.gram();
          g.mult(b);
        }
        return null;
      });
    }
  }

  /** Best wall time and best thread CPU time of repeated calls (as {@link #best}), in seconds. */
  static double[] bestWallAndCpu(Supplier<Object> body, double budget) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long start = System.nanoTime();
    double wall = Double.POSITIVE_INFINITY;
    double cpu = Double.POSITIVE_INFINITY;
    int reps = 0;
    while (reps < 2 || ((System.nanoTime() - start) * 1e-9 < budget && reps < 100_000)) {
      long c0 = mx.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      Object sink = body.get();
      double s = (System.nanoTime() - t0) * 1e-9;
      double c = (mx.getCurrentThreadCpuTime() - c0) * 1e-9;
      if (sink == null) {
        throw new AssertionError();
      }
      if (reps > 0 || s > budget) {
        wall = Math.min(wall, s);
        cpu = Math.min(cpu, c);
      }
      reps++;
    }
    return new double[] {wall, cpu};
  }

  /** Best wall time of repeated calls within about {@code budget} seconds (at least 2 calls, one warm-up). */
  static double best(Supplier<Object> body, double budget) {
    long start = System.nanoTime();
    double best = Double.POSITIVE_INFINITY;
    int reps = 0;
    while (reps < 2 || ((System.nanoTime() - start) * 1e-9 < budget && reps < 100_000)) {
      long t0 = System.nanoTime();
      Object sink = body.get();
      double s = (System.nanoTime() - t0) * 1e-9;
      if (sink == null) {
        throw new AssertionError();
      }
      if (reps > 0 || s > budget) {
        best = Math.min(best, s);
      }
      reps++;
    }
    return best;
  }

  static Matrix random(int r, int c, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    Matrix m = Matrix.zeros(r, c);
    for (int i = 0; i < r * c; i++) {
      m.data()[i] = rng.nextDouble() * 2 - 1;
    }
    return m;
  }

  static int[] parse(String csv) {
    String[] p = csv.split(",");
    int[] out = new int[p.length];
    for (int i = 0; i < p.length; i++) {
      out[i] = Integer.parseInt(p[i].trim());
    }
    return out;
  }

  /**
   * Peak double-precision rate: cores × GHz × flops per cycle per core, where flops per cycle =
   * 2 (FMA) × FMA pipes × doubles per pipe. AMD Zen 4 (family 25 with AVX-512) executes AVX-512 on
   * two 256-bit FMA pipes: 2 × 2 × 4 = 16; Zen 5 (family 26) and AVX-512 Intel server cores: two
   * 512-bit pipes, 32; AVX2 + FMA: 16. GHz is /proc/cpuinfo's "cpu MHz" (the nominal clock a VM
   * reports; turbo may be higher, which would lower the true fractions).
   */
  record Peak(int cores, double ghz, int flopsPerCycle, String how) {
    double perCore() {
      return ghz * flopsPerCycle;
    }

    double total() {
      return cores * perCore();
    }

    String explanation() {
      return String.format(
          Locale.ROOT,
          "peak: %d cores x %.3f GHz x %d flop/cycle (%s) = %.1f GFLOP/s"
              + " (%.1f GFLOP/s per core; BLAS runs single-threaded by default)",
          cores,
          ghz,
          flopsPerCycle,
          how,
          total(),
          perCore());
    }

    static Peak detect() throws IOException {
      String info = Files.readString(Path.of("/proc/cpuinfo"));
      int cores = Runtime.getRuntime().availableProcessors();
      double mhz = 0;
      int family = 0;
      String vendor = "";
      String flags = "";
      for (String line : info.split("\n")) {
        String[] kv = line.split(":", 2);
        if (kv.length < 2) {
          continue;
        }
        String k = kv[0].trim();
        String v = kv[1].trim();
        if (k.equals("cpu MHz") && mhz == 0) {
          mhz = Double.parseDouble(v);
        } else if (k.equals("cpu family") && family == 0) {
          family = Integer.parseInt(v);
        } else if (k.equals("vendor_id") && vendor.isEmpty()) {
          vendor = v;
        } else if (k.equals("flags") && flags.isEmpty()) {
          flags = " " + v + " ";
        }
      }
      boolean avx512 = flags.contains(" avx512f ");
      boolean fma = flags.contains(" fma ");
      int fpc;
      String how;
      if (avx512 && vendor.equals("AuthenticAMD") && family == 25) {
        fpc = 16;
        how = "AMD family 25 = Zen 4: AVX-512 on 2 x 256-bit FMA pipes = 2 x 2 x 4";
      } else if (avx512) {
        fpc = 32;
        how = vendor + " family " + family + " AVX-512: 2 x 512-bit FMA pipes = 2 x 2 x 8";
      } else if (fma) {
        fpc = 16;
        how = "AVX2 + FMA: 2 x 256-bit FMA pipes = 2 x 2 x 4";
      } else {
        fpc = 4;
        how = "SSE2, no FMA: 2 x 2";
      }
      return new Peak(cores, mhz / 1000, fpc, how);
    }
  }
}
