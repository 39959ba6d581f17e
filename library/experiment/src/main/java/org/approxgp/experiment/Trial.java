package org.approxgp.experiment;

/**
 * One independent unit of work: computes a result row from the config and the trial key.
 * Implementations must be thread-safe and deterministic given {@code (config, key)}.
 *
 * @param <C> the experiment's config record type
 * @param <K> the experiment's trial-key record type
 */
@FunctionalInterface
public interface Trial<C extends Record, K extends Record> {
  ResultRow run(C config, K key) throws Exception;
}
