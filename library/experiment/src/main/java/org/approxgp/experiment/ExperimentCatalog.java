package org.approxgp.experiment;

import java.util.List;

/**
 * A provider of registered experiments, found by {@link java.util.ServiceLoader} (a line naming the
 * implementation in {@code META-INF/services/org.approxgp.experiment.ExperimentCatalog}), so that a
 * higher layer (the papers) or another module (tests, a user's JAR) adds experiments without this
 * package naming them. Implementations need a public no-argument constructor.
 */
public interface ExperimentCatalog {

  /** The experiments this catalog registers. */
  List<ExperimentSpec<?, ?>> experiments();
}
