package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.approxgp.linalg.Linalg;
import org.junit.jupiter.api.Test;

/**
 * The cross-validation tie rule: errors within {@link RepCv#TIE} are tied and keep the earlier grid point, however
 * the last bit of their sums fell; a real difference (one held-out error) is never a tie.
 */
class RepCvTieTest {

  /** The mean over 3 folds of 106 held-out rows each of these error counts, as {@link RepCv#grid} sums it. */
  private static double mean(int... counts) {
    double err = 0;
    for (int c : counts) {
      err += (double) c / 106;
    }
    return err / counts.length;
  }

  @Test
  void equalCountsSummedInAnotherOrderAreTiedAndKeepTheEarlierPoint() {
    // 74 errors in 318 held-out rows, spread two ways over the folds: the same number, other last
    // bits
    double a = mean(26, 29, 19);
    double b = mean(20, 20, 34);
    assertNotEquals(
        a, b, "the two sums of 74/318 differ in the last bit (else this test tests nothing)");
    double low = Math.min(a, b);
    double high = Math.max(a, b);
    assertEquals(high, low, 1e-15);
    // the earlier grid point holds the larger of the two roundings: a last-bit rule would take the
    // later one
    RepCv.Grid g = new RepCv.Grid(
        List.of(1.0, 4.0), List.of(0.5, 0.9), new double[][] {{high, 0.3}, {0.3, low}});
    assertEquals(1.0, g.best().lengthscale(), 0.0);
    assertEquals(0.5, g.best().parameter(), 0.0);
    RepCv.Grid h =
        new RepCv.Grid(List.of(1.0), List.of(0.5, 0.7, 0.9), new double[][] {{0.3, high, low}});
    assertEquals(0.7, h.bestAt(0).parameter(), 0.0);
  }

  @Test
  void oneHeldOutErrorIsADifference() {
    double a = mean(25, 25, 24); // 74/318
    double b = mean(25, 24, 24); // 73/318
    RepCv.Grid g =
        new RepCv.Grid(List.of(1.0, 4.0), List.of(Double.NaN), new double[][] {{a}, {b}});
    assertEquals(4.0, g.best().lengthscale(), 0.0);
    assertEquals(b, g.best().cvError(), 0.0);
  }

  @Test
  void sharedLengthscaleTiesKeepTheEarlier() {
    double a = mean(26, 29, 19);
    double b = mean(20, 20, 34);
    double high = Math.max(a, b);
    double low = Math.min(a, b);
    // EP's grid alone decides (the others equal at both ℓ): its later ℓ is lower only in the last
    // bit
    RepCv.Grid ep =
        new RepCv.Grid(List.of(1.0, 4.0), List.of(Double.NaN), new double[][] {{high}, {low}});
    RepCv.Grid other =
        new RepCv.Grid(List.of(1.0, 4.0), List.of(Double.NaN), new double[][] {{0.25}, {0.25}});
    assertEquals(0, RepCv.sharedLengthscale(List.of(ep, other)));
    RepCv.Grid better = new RepCv.Grid(List.of(1.0, 4.0), List.of(Double.NaN), new double[][] {
      {high}, {mean(24, 24, 25)}
    });
    assertEquals(1, RepCv.sharedLengthscale(List.of(better, other)));
  }

  @Test
  void aRerunUnderAnotherRoundingComputesItsGridsAfresh() {
    Object unit = new Object(); // keys no other test uses
    List<Object> keys = List.of(List.of(unit, "ep"), List.of(unit, "rep"));
    AtomicInteger runs = new AtomicInteger();
    Supplier<RepCv.Grid> compute = () -> {
      runs.incrementAndGet();
      return new RepCv.Grid(List.of(1.0), List.of(Double.NaN), null);
    };
    List<Supplier<RepCv.Grid>> computes = List.of(compute, compute);
    List<RepCv.Grid> first = RepCv.memoAll(keys, computes, 0);
    assertEquals(2, runs.get());
    assertSame(first.get(0), RepCv.memoAll(keys, computes, 1).get(0));
    assertEquals(2, runs.get(), "the default rounding reuses the memo");
    List<RepCv.Grid> perturbed =
        Linalg.withUlpPerturbation(7, () -> RepCv.memoAll(keys, computes, 1));
    assertEquals(4, runs.get(), "a perturbed rerun computes every grid again");
    assertNotSame(first.get(0), perturbed.get(0));
    assertSame(
        first.get(1), RepCv.memoAll(keys, computes, 0).get(1), "and leaves the memo as it was");
    assertEquals(4, runs.get());
  }
}
