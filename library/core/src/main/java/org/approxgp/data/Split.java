package org.approxgp.data;

import java.util.Arrays;

/**
 * Row indices of a training part and a test part. Arrays are copied on construction and on access.
 *
 * @param train training row indices
 * @param test test row indices
 */
public record Split(int[] train, int[] test) {
  public Split {
    train = train.clone();
    test = test.clone();
  }

  @Override
  public int[] train() {
    return train.clone();
  }

  @Override
  public int[] test() {
    return test.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Split s && Arrays.equals(train, s.train) && Arrays.equals(test, s.test);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(train) + Arrays.hashCode(test);
  }

  @Override
  public String toString() {
    return "Split[train=" + train.length + " rows, test=" + test.length + " rows]";
  }
}
