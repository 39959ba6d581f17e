package org.approxgp.experiment;

/**
 * One independent unit of work: computes a result row from the config and the trial key.
 * Implementations must be thread-safe and deterministic given {@code (config, key)}.
 *
 * @param <C> the experiment's config record type
 */
@FunctionalInterface
public interface Trial<C extends Record> {
    ResultRow run(C config, TrialKey key) throws Exception;
}
