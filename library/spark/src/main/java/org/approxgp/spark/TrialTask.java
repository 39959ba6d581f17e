package org.approxgp.spark;

import java.io.Serializable;

/**
 * What one Spark task receives: the experiment's name and config (as JSON, with its canonical
 * string to check the decoding) and one trial id; the executor rebuilds the experiment from the
 * registry and runs that trial.
 *
 * @param index           position in the driver's pending list
 * @param experimentName  {@link org.approxgp.experiment.Experiment#name()}
 * @param configClass     the config record's class name
 * @param configJson      the config as JSON ({@link ConfigCodec})
 * @param configCanonical the config's {@link org.approxgp.experiment.ConfigHash#canonical} string
 * @param trialId         the trial's {@link org.approxgp.experiment.TrialKeys#id}
 */
record TrialTask(
    int index,
    String experimentName,
    String configClass,
    String configJson,
    String configCanonical,
    String trialId)
    implements Serializable {}
