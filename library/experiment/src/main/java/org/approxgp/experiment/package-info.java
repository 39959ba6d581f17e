/**
 * Experiment machinery, and nothing paper-specific: an {@link org.approxgp.experiment.Experiment} is
 * a config record, the list of its independent trials — each identified by the experiment's own
 * trial-key record, e.g. {@code record Key(String dataset, String method, long seed, int fold)} — and
 * the function {@code (config, key) -> row}. The key's components are the key columns of the result
 * table and, as {@code dataset=ionosphere;method=ep;seed=0;fold=3}, the trial id in the results file
 * (see {@link org.approxgp.experiment.TrialKeys}); {@link org.approxgp.experiment.TrialKey} is the
 * ready-made (method, seed, fold) key.
 *
 * <p>{@link org.approxgp.experiment.Runner} skips the trials already in
 * {@code <results>/<experiment>/<config-hash>.jsonl}, hands the others to a
 * {@link org.approxgp.experiment.TrialExecutor} (by default a local thread pool; the {@code approxgp-spark}
 * module's Spark executor is chosen by {@link org.approxgp.experiment.Engines}), appends each finished row as soon as it completes (so a killed run
 * resumes and loses nothing), reports progress, and returns the rows in trial-list order as a
 * Tablesaw {@code Table}. {@link org.approxgp.experiment.Summaries} turns them into mean ± sd tables.
 * Paper experiments live in {@code org.approxgp.papers.*}; the
 * {@link org.approxgp.experiment.ExperimentRegistry} lists them by name ({@code approxgp run NAME}) through
 * {@link org.approxgp.experiment.ExperimentCatalog} service providers, and rebuilds one from its name and
 * config on a remote executor.
 *
 * <p>{@link org.approxgp.experiment.SmokePipeline} stays here: it is not a paper but the
 * known-answer self-check of this machinery end to end (runner, store, tables, figures in a
 * notebook), it depends on nothing but this package, and keeping it keeps its stored results valid.
 *
 * <p>Determinism: a trial's result must depend only on the config and its key (seed its RNG from the
 * key's seed); rows are returned in the order of the trial list, never in completion order, so the
 * table is the same for any thread count or executor.
 */
package org.approxgp.experiment;
