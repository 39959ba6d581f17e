package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.Probit;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.model.InferenceMethod;
import org.approxgp.model.Registry;
import org.approxgp.projection.KlProjection;
import org.approxgp.projection.LpProjection;
import org.approxgp.projection.Projection;
import org.approxgp.projection.W2Projection;
import org.approxgp.special.NumericalException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The site loop's contract: failures, method names, per-call state, the convergence trace. */
@Tag("rounding")
class SiteLoopTest {

  static Problem probit(long seed, int n) {
    double[][] x = SmallProblems.inputs(seed, n, 2);
    return Problem.of(SmallProblems.iso(), x, SmallProblems.labels(seed, x), Probit.get());
  }

  /** The KL projection that throws a NumericalException on its k-th call (k counted from 1). */
  static final class FailingProjection implements Projection {
    final int failAt;
    final AtomicInteger calls = new AtomicInteger();

    FailingProjection(int failAt) {
      this.failAt = failAt;
    }

    @Override
    public TiltedMoments project(Likelihood likelihood, double y, double m, double v) {
      if (calls.incrementAndGet() == failAt) {
        throw new NumericalException("test projection failed");
      }
      return likelihood.tilted(y, m, v);
    }

    @Override
    public String name() {
      return "failing";
    }
  }

  @Test
  void failingProjectionInSweepTwoIsAnInferenceExceptionWithDiagnostics() {
    Problem p = probit(3, 20);
    // 20 sites per sweep: call 27 is site 6 of sweep 2
    for (SiteLoop.Schedule schedule : SiteLoop.Schedule.values()) {
      FailingProjection proj = new FailingProjection(27);
      InferenceException e = assertThrows(
          InferenceException.class,
          () -> Ep.infer(
              p,
              Ep.Options.defaults().withProjection(proj).withLoop(l -> l.withSchedule(schedule)),
              null));
      assertInstanceOf(NumericalException.class, e.getCause());
      assertTrue(e.getMessage().contains("test projection failed"), e.getMessage());
      assertTrue(e.getMessage().contains("site 6 in sweep 2"), e.getMessage());
      Diagnostics d = e.diagnostics();
      assertEquals("ep[failing]", d.method());
      assertEquals(1, d.iterations(), d.toString());
      assertFalse(d.converged());
      assertEquals(1, d.trace().size());
      assertEquals(d.finalChange(), d.trace().get(0));
      assertTrue(Double.isFinite(d.finalChange()), d.toString());
    }
  }

  @Test
  void failingProjectionSurfacesThroughInferenceMethod() {
    Problem p = probit(3, 20);
    InferenceMethod m =
        InferenceMethod.ep(Ep.Options.defaults().withProjection(new FailingProjection(3)));
    InferenceException e = assertThrows(InferenceException.class, () -> m.infer(p, null));
    assertTrue(e.getMessage().contains("site 2 in sweep 1"), e.getMessage());
    assertEquals(0, e.diagnostics().iterations());
  }

  @Test
  void qpPosteriorIsNamedQp() {
    Problem p = probit(4, 25);
    assertEquals("qp", Qp.infer(p).diagnostics().method());
    assertEquals(
        "qp",
        Qp.infer(p, Ep.Options.defaults().withProjection(W2Projection.exact()), null)
            .diagnostics()
            .method());
    assertEquals("qp", Ep.infer(p, Qp.options(), null).diagnostics().method());
    assertEquals("qp", Registry.inference("qp").infer(p, null).diagnostics().method());
    assertEquals("qp", Registry.inference("qp").name());
    assertEquals("qp", InferenceMethod.ep(Qp.options()).name());
    assertEquals(
        "qp", InferenceMethod.ep(Qp.options()).infer(p, null).diagnostics().method());
    assertEquals("ep", Ep.infer(p).diagnostics().method());
    assertEquals("ep", InferenceMethod.ep().name());
    assertEquals(
        "lp(p=1.5)",
        Ep.infer(p, Ep.Options.defaults().withProjection(LpProjection.of(1.5)), null)
            .diagnostics()
            .method());
    assertEquals("lp(p=3)", MomentMatching.lp(3).name());
    assertEquals("mine", MomentMatching.named("mine", KlProjection.get()).name());
  }

  @Test
  void entryPointsAreTheLoopToTheBit() {
    Problem p = probit(5, 30);
    Posterior viaEp = Ep.infer(p);
    Posterior viaLoop = SiteLoop.run(p, MomentMatching.ep(), SiteLoopOptions.defaults(), null);
    assertEquals(viaEp.logEvidence(), viaLoop.logEvidence(), 0);
    assertArrayEquals(viaEp.sites().tau(), viaLoop.sites().tau(), 0);
    assertArrayEquals(viaEp.sites().nu(), viaLoop.sites().nu(), 0);
    assertArrayEquals(viaEp.logEvidenceGradient(), viaLoop.logEvidenceGradient(), 0);
    Posterior qp = Qp.infer(p);
    Posterior qpLoop = SiteLoop.run(
        p,
        MomentMatching.qp(W2Projection.forLikelihood(p.likelihood())),
        SiteLoopOptions.defaults(),
        null);
    assertEquals(qp.logEvidence(), qpLoop.logEvidence(), 0);
    assertArrayEquals(qp.sites().tau(), qpLoop.sites().tau(), 0);
  }

  @Test
  void convergenceTraceHasOneRmsChangePerSweep() {
    Posterior post = Ep.infer(probit(6, 30));
    Diagnostics d = post.diagnostics();
    assertTrue(d.converged());
    assertEquals(d.iterations(), d.trace().size());
    assertEquals(d.finalChange(), d.trace().get(d.trace().size() - 1));
    for (int s = 0; s < d.trace().size() - 1; s++) {
      assertTrue(
          d.trace().get(s) >= 1e-6, "sweep " + s + " already met the tolerance: " + d.trace());
    }
    assertTrue(d.finalChange() < 1e-6);
  }

  /** EP's rule with a per-call state that counts its proposals and records the thread of its run. */
  static final class CountingEp implements SiteUpdate<CountingEp.Count> {
    static final class Count {
      final Problem problem;
      int proposals;
      int logZs;

      Count(Problem problem) {
        this.problem = problem;
      }
    }

    final Map<Problem, Count> states = new ConcurrentHashMap<>();
    final AtomicInteger starts = new AtomicInteger();
    final CountDownLatch bothRunning;

    CountingEp(CountDownLatch bothRunning) {
      this.bothRunning = bothRunning;
    }

    @Override
    public String name() {
      return "counting-ep";
    }

    @Override
    public Count start(Problem problem) {
      starts.incrementAndGet();
      Count c = new Count(problem);
      states.put(problem, c);
      return c;
    }

    @Override
    public Cavity cavity(
        Count state, int i, double mean, double variance, double siteTau, double siteNu) {
      return MomentMatching.ep().cavity(null, i, mean, variance, siteTau, siteNu);
    }

    @Override
    public Site propose(Count state, Problem problem, int i, Cavity cavity) {
      if (state.problem != problem) {
        throw new AssertionError("state of another run");
      }
      if (state.proposals == 0) {
        // make both runs be in their sweeps at the same time
        bothRunning.countDown();
        try {
          if (!bothRunning.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the other run never started");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError(e);
        }
      }
      state.proposals++;
      return MomentMatching.ep().propose(null, problem, i, cavity);
    }

    @Override
    public double logZ(
        Count state,
        Problem problem,
        int i,
        double mean,
        double variance,
        double siteTau,
        double siteNu) {
      state.logZs++;
      return MomentMatching.ep().logZ(null, problem, i, mean, variance, siteTau, siteNu);
    }
  }

  @Test
  void perCallStateIsNotSharedBetweenConcurrentRuns() throws Exception {
    Problem a = probit(7, 25);
    Problem b = probit(8, 40);
    CountingEp rule = new CountingEp(new CountDownLatch(2));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<Posterior> fa =
          pool.submit(() -> SiteLoop.run(a, rule, SiteLoopOptions.defaults(), null));
      Future<Posterior> fb =
          pool.submit(() -> SiteLoop.run(b, rule, SiteLoopOptions.defaults(), null));
      Posterior pa = fa.get();
      Posterior pb = fb.get();
      assertEquals(2, rule.starts.get());
      for (Posterior post : List.of(pa, pb)) {
        CountingEp.Count c = rule.states.get(post.problem());
        int n = post.problem().size();
        // every site proposes once per sweep (no skips with a probit likelihood), one log Z per
        // site
        assertEquals(
            n * post.diagnostics().iterations(), c.proposals, post.diagnostics().toString());
        assertEquals(n, c.logZs);
        assertEquals("counting-ep", post.diagnostics().method());
        // and the rule is EP: the same numbers as Ep.infer, to the bit
        Posterior ep = Ep.infer(post.problem());
        assertEquals(ep.logEvidence(), post.logEvidence(), 0);
        assertArrayEquals(ep.sites().tau(), post.sites().tau(), 0);
      }
      assertNotSame(rule.states.get(a), rule.states.get(b));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void warmStartOfTheWrongSizeIsAProgrammingError() {
    Problem p = probit(9, 10);
    assertThrows(
        IllegalArgumentException.class, () -> Ep.infer(p, Ep.Options.defaults(), Sites.zeros(11)));
  }
}
