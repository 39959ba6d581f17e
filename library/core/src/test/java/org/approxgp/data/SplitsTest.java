package org.approxgp.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SplitsTest {
  @ParameterizedTest(name = "n={0}, k={1}")
  @CsvSource({"351, 10", "683, 10", "732, 10", "200, 10", "10, 10", "23, 4", "2, 2"})
  void kFoldFoldsAreDisjointCoverAndHaveFloorSize(int n, int k) {
    List<Split> folds = Splits.kFold(n, k, 7);
    assertEquals(k, folds.size());
    int m = n / k;
    int[] timesTested = new int[n];
    for (Split s : folds) {
      assertEquals(m, s.test().length);
      assertEquals(n - m, s.train().length);
      boolean[] inTest = new boolean[n];
      for (int i : s.test()) {
        inTest[i] = true;
        timesTested[i]++;
      }
      // train and test are disjoint and together cover 0..n-1
      int[] all = IntStream.concat(Arrays.stream(s.train()), Arrays.stream(s.test()))
          .sorted()
          .toArray();
      assertArrayEquals(IntStream.range(0, n).toArray(), all);
      for (int i : s.train()) {
        assertTrue(!inTest[i]);
      }
    }
    // test folds are pairwise disjoint; exactly n mod k rows are never tested
    long never = Arrays.stream(timesTested).filter(t -> t == 0).count();
    assertEquals(n % k, never);
    assertTrue(Arrays.stream(timesTested).allMatch(t -> t <= 1));
  }

  @Test
  void leftoverRowsAreTheSameForEveryFoldAndAlwaysTrain() {
    List<Split> folds = Splits.kFold(23, 4, 3);
    int[] tested = new int[23];
    folds.forEach(s -> Arrays.stream(s.test()).forEach(i -> tested[i]++));
    int[] leftover = IntStream.range(0, 23).filter(i -> tested[i] == 0).toArray();
    assertEquals(3, leftover.length);
    for (Split s : folds) {
      for (int i : leftover) {
        assertTrue(Arrays.stream(s.train()).anyMatch(t -> t == i));
      }
    }
  }

  @Test
  void kFoldIsDeterministicAndSeedDependent() {
    assertEquals(Splits.kFold(351, 10, 42), Splits.kFold(351, 10, 42));
    assertNotEquals(Splits.kFold(351, 10, 42), Splits.kFold(351, 10, 43));
  }

  @Test
  void kFoldIsShuffled() {
    int[] test = Splits.kFold(100, 10, 0).get(0).test();
    assertNotEquals(Arrays.toString(IntStream.range(0, 10).toArray()), Arrays.toString(test));
  }

  @Test
  void kFoldRejectsBadK() {
    assertThrows(IllegalArgumentException.class, () -> Splits.kFold(10, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> Splits.kFold(5, 6, 0));
  }

  @Test
  void randomSplit() {
    Split s = Splits.random(100, 0.3, 5);
    assertEquals(30, s.test().length);
    assertEquals(70, s.train().length);
    int[] all = IntStream.concat(Arrays.stream(s.train()), Arrays.stream(s.test()))
        .sorted()
        .toArray();
    assertArrayEquals(IntStream.range(0, 100).toArray(), all);
    assertEquals(s, Splits.random(100, 0.3, 5));
    assertNotEquals(s, Splits.random(100, 0.3, 6));
    assertEquals(1, Splits.random(3, 0.01, 0).test().length);
    assertEquals(2, Splits.random(3, 0.99, 0).test().length);
    assertThrows(IllegalArgumentException.class, () -> Splits.random(10, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> Splits.random(10, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> Splits.random(1, 0.5, 0));
  }

  @Test
  void bernoulliSplitPartitionsAndIsDeterministic() {
    Split s = Splits.bernoulli(191, 0.5, 9);
    assertEquals(191, s.train().length + s.test().length);
    int[] all = IntStream.concat(Arrays.stream(s.train()), Arrays.stream(s.test()))
        .sorted()
        .toArray();
    assertArrayEquals(IntStream.range(0, 191).toArray(), all);
    assertEquals(s, Splits.bernoulli(191, 0.5, 9));
    assertEquals(0, Splits.bernoulli(50, 0, 1).test().length);
    assertEquals(50, Splits.bernoulli(50, 1, 1).test().length);
  }

  @Test
  void splitArraysAreCopies() {
    Split s = Splits.random(10, 0.5, 1);
    int[] t = s.test();
    t[0] = -1;
    assertNotEquals(-1, s.test()[0]);
  }
}
