package org.approxgp.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.LogDensity;
import org.approxgp.likelihood.Predictive;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.likelihood.VariationalExpectation;

/**
 * A likelihood that is another one in every method (each call is forwarded, so the numbers are the same to the bit)
 * and adds up the thread CPU time spent in {@link #variationalExpectation}: how much of a VB fit the variational
 * expectations take ({@link VbProfile}). CPU time rather than wall time, so that another job on the machine does not
 * count. Reading the thread's clock is a system call (about 1 µs in this VM, against the 2–30 µs of a probit
 * expectation), so {@link #seconds} subtracts, per call, the interval two back-to-back reads measure around nothing
 * ({@link #CLOCK_INTERVAL}, calibrated once).
 */
final class TimedExpectations implements Likelihood {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
  /** Mean nanoseconds two back-to-back reads of the thread CPU clock measure around nothing. */
  static final double CLOCK_INTERVAL = calibrate();

  private final Likelihood inner;
  private long nanos;
  private long calls;

  TimedExpectations(Likelihood inner) {
    this.inner = inner;
  }

  /** Thread CPU seconds spent in variational expectations so far, less the clock's own share. */
  double seconds() {
    return Math.max(0, nanos - calls * CLOCK_INTERVAL) * 1e-9;
  }

  /**
   * Thread CPU seconds the timing itself added to the caller so far: two clock reads per call, one of which
   * {@link #seconds} has already left out; subtract this from a time measured around the whole fit.
   */
  double clockSeconds() {
    return 2 * calls * CLOCK_INTERVAL * 1e-9;
  }

  private static double calibrate() {
    long sum = 0;
    int n = 200_000;
    for (int i = 0; i < 2 * n; i++) {
      long t0 = CPU.getCurrentThreadCpuTime();
      long t1 = CPU.getCurrentThreadCpuTime();
      if (i >= n) {
        sum += t1 - t0; // the first n are JIT warm-up
      }
    }
    return (double) sum / n;
  }

  /** Variational expectations computed so far. */
  long calls() {
    return calls;
  }

  @Override
  public VariationalExpectation variationalExpectation(double y, double m, double v) {
    long t0 = CPU.getCurrentThreadCpuTime();
    VariationalExpectation e = inner.variationalExpectation(y, m, v);
    nanos += CPU.getCurrentThreadCpuTime() - t0;
    calls++;
    return e;
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public void validate(double y) {
    inner.validate(y);
  }

  @Override
  public LogDensity logDensity(double y, double f) {
    return inner.logDensity(y, f);
  }

  @Override
  public double logDensityValue(double y, double f) {
    return inner.logDensityValue(y, f);
  }

  @Override
  public double[] breakpoints(double y) {
    return inner.breakpoints(y);
  }

  @Override
  public TiltedMoments tilted(double y, double m, double v) {
    return inner.tilted(y, m, v);
  }

  @Override
  public TiltedMoments powerTilted(double y, double m, double v, double u) {
    return inner.powerTilted(y, m, v, u);
  }

  @Override
  public double tiltedCdf(double y, double m, double v, double x) {
    return inner.tiltedCdf(y, m, v, x);
  }

  @Override
  public double tiltedExpectedLogDensity(double y, double m, double v) {
    return inner.tiltedExpectedLogDensity(y, m, v);
  }

  @Override
  public double tiltedSurvival(double y, double m, double v, double x) {
    return inner.tiltedSurvival(y, m, v, x);
  }

  @Override
  public boolean exactTiltedTails() {
    return inner.exactTiltedTails();
  }

  @Override
  public double logPredictive(double y, double m, double v) {
    return inner.logPredictive(y, m, v);
  }

  @Override
  public Predictive predictive(double m, double v) {
    return inner.predictive(m, v);
  }

  @Override
  public double conditionalMean(double f) {
    return inner.conditionalMean(f);
  }

  @Override
  public double conditionalVariance(double f) {
    return inner.conditionalVariance(f);
  }

  @Override
  public List<String> hyperparameterNames() {
    return inner.hyperparameterNames();
  }

  @Override
  public double[] logHyperparameters() {
    return inner.logHyperparameters();
  }

  @Override
  public Likelihood withLogHyperparameters(double[] t) {
    Likelihood l = inner.withLogHyperparameters(t);
    if (l == inner) {
      return this;
    }
    throw new UnsupportedOperationException(
        "TimedExpectations times likelihoods without hyperparameters only");
  }
}
