/**
 * approxgp on Apache Spark: {@link org.approxgp.spark.SparkTrialExecutor} runs each pending trial of a
 * registered experiment as a Spark task (embedded {@code local[*]} by default, a cluster by master URL)
 * behind the core's {@link org.approxgp.experiment.TrialExecutor} seam, so the runner's results store,
 * resume and bit-identical rows carry over unchanged; {@link org.approxgp.spark.SparkEngine} makes it
 * the {@code spark} engine of {@code approxgp run} and {@code Runner.withEngine}. The core library
 * never depends on this module.
 */
package org.approxgp.spark;
