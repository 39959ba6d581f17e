/**
 * Experiment runner: an experiment is a {@code Config} record plus a list of independent trials
 * {@code (config, key) -> row}. {@link org.approxgp.experiment.Runner} runs the trials in parallel,
 * appends each finished row to {@code <results>/<experiment>/<config-hash>.jsonl} as soon as it
 * completes (so a killed run resumes and loses nothing), reports progress, and returns the rows as a
 * Tablesaw {@code Table}. {@link org.approxgp.experiment.Summaries} turns them into mean ± sd tables.
 *
 * <p>Determinism: a trial's result must depend only on the config and its {@link
 * org.approxgp.experiment.TrialKey} (seed its RNG from {@code key.seed()}); rows are returned in
 * the order of the trial list, never in completion order, so the table is the same for any thread
 * count.
 */
package org.approxgp.experiment;
