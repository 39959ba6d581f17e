package org.approxgp.data;

import java.util.List;
import java.util.Objects;

/**
 * A named regression data set: row-major {@link RegressionData} with its column names and provenance.
 *
 * @param name short name (e.g. {@code flights-3m})
 * @param featureNames one name per input column, length {@code data.d()}
 * @param targetName name of the target
 * @param data the rows
 * @param provenance where it came from and how it was derived
 */
public record RegressionSet(
    String name,
    List<String> featureNames,
    String targetName,
    RegressionData data,
    Provenance provenance) {

  public RegressionSet {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(targetName, "targetName");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(provenance, "provenance");
    featureNames = List.copyOf(featureNames);
    if (featureNames.size() != data.d()) {
      throw new IllegalArgumentException(
          featureNames.size() + " feature names for " + data.d() + " inputs");
    }
  }

  /** Number of rows. */
  public int size() {
    return data.n();
  }

  /** The rows with the given indices, in that order (copied), as a data set called {@code newName}. */
  public RegressionSet rows(int[] rows, String newName, String step) {
    return new RegressionSet(
        newName, featureNames, targetName, data.subset(rows), provenance.derived(step));
  }
}
