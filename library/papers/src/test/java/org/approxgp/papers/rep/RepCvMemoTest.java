package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A unit's cross-validation grids: each computed once, by whichever trial gets to it first, returned in key order. */
class RepCvMemoTest {

  @Test
  void eachGridOnceInKeyOrderWhateverTheThread() throws Exception {
    Object unit = new Object(); // keys no other test uses
    List<Object> keys =
        List.of(List.of(unit, "ep"), List.of(unit, "power-ep"), List.of(unit, "rep"));
    AtomicInteger[] runs = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
    List<Thread> computedBy = new ArrayList<>(List.of(new Thread(), new Thread(), new Thread()));
    CountDownLatch bothStarted = new CountDownLatch(2);
    List<Supplier<RepCv.Grid>> computes = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      int m = i;
      computes.add(() -> {
        runs[m].incrementAndGet();
        computedBy.set(m, Thread.currentThread());
        if (m < 2) {
          // the first two grids are in progress at once: each thread is computing its own
          bothStarted.countDown();
          try {
            if (!bothStarted.await(30, java.util.concurrent.TimeUnit.SECONDS)) {
              throw new IllegalStateException(
                  "the other grid never started: one trial waited on the other");
            }
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        }
        return new RepCv.Grid(List.of(1.0 + m), List.of(Double.NaN), null);
      });
    }
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<List<RepCv.Grid>> a = pool.submit(() -> RepCv.memoAll(keys, computes, 0));
      Future<List<RepCv.Grid>> b = pool.submit(() -> RepCv.memoAll(keys, computes, 1));
      List<RepCv.Grid> ga = a.get();
      List<RepCv.Grid> gb = b.get();
      for (int i = 0; i < 3; i++) {
        assertEquals(1, runs[i].get(), "grid " + i + " computed once");
        assertSame(ga.get(i), gb.get(i));
        assertEquals(1.0 + i, ga.get(i).lengthscales().get(0), 0.0, "key order");
      }
      // had a trial waited for a grid another was computing before starting its own, the latch
      // would never open
      assertEquals(2, computedBy.subList(0, 2).stream().distinct().count());
    } finally {
      pool.shutdownNow();
    }
    assertSame(
        RepCv.memoAll(keys, computes, 2).get(2),
        RepCv.memoAll(keys.subList(2, 3), computes.subList(2, 3), 0).get(0));
  }
}
