package org.approxgp.data;

/** What the target column of a data set must contain; checked when loading. */
public enum TargetKind {
  /** Any finite real number. */
  REAL,
  /** Exactly two distinct values, mapped to -1 and +1 (see {@link Datasets#loadBinary}). */
  BINARY,
  /** Non-negative integers (Poisson counts). */
  COUNT
}
