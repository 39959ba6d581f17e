package org.approxgp.experiment;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The version of the algorithm an experiment's trials run, on its config record: part of the store's identity
 * ({@link ConfigHash#storeHash}), so that an intended change of what a trial computes (a new sampler, another
 * stopping rule) starts a new store instead of mixing rows of two algorithms in one, and verification of the old
 * rows against the new code is not asked for. A config without it is at version 1, which leaves the hash as it was
 * before versions existed (every store shipped then keeps its name); raise it to 2, 3, ... when a trial's
 * algorithm changes on purpose.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface AlgorithmVersion {
  /** The version, at least 1. */
  int value();
}
