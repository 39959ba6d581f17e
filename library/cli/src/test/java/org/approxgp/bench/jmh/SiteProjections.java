package org.approxgp.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.Probit;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.projection.KlProjection;
import org.approxgp.projection.W2Projection;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH micro-benchmark: one site's projection, the inner step of every site-loop method, on a fixed spread of
 * cavities (y = ±1, cavity means in [−3, 3], variances in [0.05, 20]; the same 64 every call): EP's KL projection
 * of the probit tilted distribution (closed form, the baseline {@link org.approxgp.bench.MicroBench} divides by),
 * Power EP's u = 0.5 tilted moments, QP's W2 projection exact (root-finding on the tilted quantile function) and
 * from the shipped table, and the noisy-step likelihood's tilted moments.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SiteProjections {

  private static final int CAVITIES = 64;

  private final double[] y = new double[CAVITIES];
  private final double[] m = new double[CAVITIES];
  private final double[] v = new double[CAVITIES];
  private final Likelihood probit = Probit.get();
  private final Likelihood noisyStep = NoisyStep.of(0.1);
  private final KlProjection kl = KlProjection.get();
  private final W2Projection w2Exact = W2Projection.exact();
  private W2Projection w2Table;

  @Setup
  public void setUp() {
    for (int i = 0; i < CAVITIES; i++) {
      y[i] = i % 2 == 0 ? 1 : -1;
      m[i] = -3 + 6.0 * i / (CAVITIES - 1);
      v[i] = 0.05 * Math.pow(400, (double) ((i * 37) % CAVITIES) / (CAVITIES - 1));
    }
    w2Table = W2Projection.probitTabulated();
  }

  /** Baseline: EP's site (closed-form probit tilted moments), per cavity. */
  @Benchmark
  @OperationsPerInvocation(CAVITIES)
  public double epProbit() {
    return overCavities((yi, mi, vi) -> kl.project(probit, yi, mi, vi));
  }

  @Benchmark
  @OperationsPerInvocation(CAVITIES)
  public double powerEpProbitHalf() {
    return overCavities((yi, mi, vi) -> probit.powerTilted(yi, mi, vi, 0.5));
  }

  @Benchmark
  @OperationsPerInvocation(CAVITIES)
  public double qpProbitExact() {
    return overCavities((yi, mi, vi) -> w2Exact.project(probit, yi, mi, vi));
  }

  @Benchmark
  @OperationsPerInvocation(CAVITIES)
  public double qpProbitTable() {
    return overCavities((yi, mi, vi) -> w2Table.project(probit, yi, mi, vi));
  }

  @Benchmark
  @OperationsPerInvocation(CAVITIES)
  public double epNoisyStep() {
    return overCavities((yi, mi, vi) -> kl.project(noisyStep, yi, mi, vi));
  }

  /** One site's projection at a cavity N(m, v) for label y. */
  @FunctionalInterface
  private interface Site {
    TiltedMoments at(double y, double m, double v);
  }

  /**
   * The site at every cavity, its results summed so none is dead code. Each benchmark runs in its own fork
   * ({@code @Fork(1)}), so the call of {@code site} stays monomorphic there.
   */
  private double overCavities(Site site) {
    double s = 0;
    for (int i = 0; i < CAVITIES; i++) {
      s += sum(site.at(y[i], m[i], v[i]));
    }
    return s;
  }

  private static double sum(TiltedMoments t) {
    return t.logZ() + t.mean() + t.variance();
  }
}
