package org.approxgp.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Linalg;
import org.approxgp.linalg.Matrix;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH micro-benchmark: one call of each dense operation at the small sizes where the native call's overhead
 * matters (microseconds per call through {@code Matrix}/{@code Cholesky}, copies included), per backend — the
 * measurement behind {@link Linalg#DEFAULT_CROSSOVER}. {@code bin/bench micro} runs it and prints native/ejml time
 * side by side ({@link org.approxgp.bench.MicroBench}); the crossover itself is read with
 * {@code -Dapproxgp.linalg.crossover=0} in the forked JVM ({@code bin/bench micro -jvmArgs
 * -Dapproxgp.linalg.crossover=0}), since below it the native backend delegates to EJML.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SmallLinalg {

  @Param({"ejml", "native"})
  public String backend;

  @Param({"8", "16", "32", "64", "128"})
  public int n;

  private Matrix g;
  private Matrix a;
  private Matrix b;
  private Cholesky chol;

  @Setup
  public void setUp() {
    if (backend.equals("native") && !Linalg.nativeAvailable()) {
      throw new IllegalStateException(
          "native backend unavailable: " + Linalg.nativeUnavailableReason());
    }
    g = random(n, 1);
    a = g.multTransB(g);
    a.addDiagonal(n);
    b = random(n, 2);
    chol = Cholesky.factor(a);
  }

  @Benchmark
  public Object cholesky() {
    return Linalg.withBackend(backend, () -> Cholesky.factor(a));
  }

  @Benchmark
  public Object trsm() {
    return Linalg.withBackend(backend, () -> chol.solveLower(b));
  }

  @Benchmark
  public Object syrk() {
    return Linalg.withBackend(backend, g::gram);
  }

  @Benchmark
  public Object gemm() {
    return Linalg.withBackend(backend, () -> g.mult(b));
  }

  private static Matrix random(int n, long seed) {
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(seed);
    double[] v = new double[n * n];
    for (int i = 0; i < v.length; i++) {
      v[i] = rng.nextDouble() - 0.5;
    }
    return Matrix.wrap(n, n, v);
  }
}
