package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.approxgp.linalg.Linalg;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner computes and verifies trials on one OpenBLAS thread whatever the process's setting, so that a
 * stored row does not depend on {@code -Dapproxgp.linalg.threads} (a multi-threaded BLAS rounds differently).
 */
class RunnerBlasThreadsTest {
  record Cfg(int unused) {}

  @TempDir
  Path dir;

  /** The BLAS thread count the trial ran with, as its result. */
  private static ResultRow threads(Cfg c, TrialKey k) {
    return ResultRow.builder().put("blas_threads", Linalg.nativeThreads()).build();
  }

  @Test
  void trialsAndTheirVerificationRunOnOneBlasThreadAndTheSettingIsRestored() {
    Assumptions.assumeTrue(Linalg.nativeAvailable(), "needs the native backend");
    Experiment<Cfg, TrialKey> exp = Experiment.of(
        "blas-threads",
        new Cfg(0),
        Experiment.grid(List.of("a"), 3, 1),
        RunnerBlasThreadsTest::threads);
    Runner runner =
        Runner.defaults().withResultsRoot(dir).withThreads(2).withProgress(ProgressListener.none());
    int before = Linalg.setNativeThreads(2);
    try {
      Results<TrialKey> r = runner.run(exp);
      for (int i = 0; i < r.rows().size(); i++) {
        assertEquals(1, ((Number) r.rows().get(i).get("blas_threads")).intValue(), "trial " + i);
      }
      assertEquals(2, Linalg.nativeThreads(), "the process's setting is back after the run");
      Verification v = runner.verify(exp, 3, 0);
      assertTrue(v.passed(), v.report());
      assertEquals(2, Linalg.nativeThreads(), "and after the verification");
      // nested and overlapping scopes: the count comes back only when the last closes
      Linalg.Scope outer = Linalg.oneNativeThread();
      Linalg.Scope inner = Linalg.oneNativeThread();
      outer.close();
      assertEquals(1, Linalg.nativeThreads());
      outer.close(); // a second close is a no-op
      assertEquals(1, Linalg.nativeThreads());
      inner.close();
      assertEquals(2, Linalg.nativeThreads());
    } finally {
      Linalg.setNativeThreads(before);
    }
  }
}
