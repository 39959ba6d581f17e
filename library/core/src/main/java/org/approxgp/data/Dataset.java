package org.approxgp.data;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * An immutable data set: an n × d feature matrix, a target vector of length n, column names and
 * provenance. All arrays are copied on the way in and on the way out.
 */
public final class Dataset {
  private final String name;
  private final List<String> featureNames;
  private final String targetName;
  private final double[][] x;
  private final double[] y;
  private final Provenance provenance;

  private Dataset(
      String name,
      List<String> featureNames,
      String targetName,
      double[][] x,
      double[] y,
      Provenance provenance) {
    this.name = name;
    this.featureNames = featureNames;
    this.targetName = targetName;
    this.x = x;
    this.y = y;
    this.provenance = provenance;
  }

  /**
   * Creates a data set (arrays are copied).
   *
   * @throws IllegalArgumentException if shapes disagree, names repeat, or a value is NaN/infinite
   */
  public static Dataset of(
      String name,
      List<String> featureNames,
      String targetName,
      double[][] features,
      double[] target,
      Provenance provenance) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(targetName, "targetName");
    Objects.requireNonNull(provenance, "provenance");
    List<String> names = List.copyOf(featureNames);
    Set<String> seen = new HashSet<>();
    for (String s : names) {
      if (!seen.add(s)) {
        throw new IllegalArgumentException("duplicate feature name '" + s + "'");
      }
    }
    if (seen.contains(targetName)) {
      throw new IllegalArgumentException("target name '" + targetName + "' is also a feature");
    }
    if (features.length != target.length) {
      throw new IllegalArgumentException(
          "features have " + features.length + " rows but target has " + target.length);
    }
    int d = names.size();
    double[][] xc = new double[features.length][];
    for (int i = 0; i < features.length; i++) {
      if (features[i].length != d) {
        throw new IllegalArgumentException(
            "row " + i + " has " + features[i].length + " features, expected " + d);
      }
      for (int j = 0; j < d; j++) {
        if (!Double.isFinite(features[i][j])) {
          throw new IllegalArgumentException(
              "feature '" + names.get(j) + "' of row " + i + " is " + features[i][j]);
        }
      }
      xc[i] = features[i].clone();
    }
    for (int i = 0; i < target.length; i++) {
      if (!Double.isFinite(target[i])) {
        throw new IllegalArgumentException("target of row " + i + " is " + target[i]);
      }
    }
    return new Dataset(name, names, targetName, xc, target.clone(), provenance);
  }

  public String name() {
    return name;
  }

  /** Feature column names, in column order (unmodifiable). */
  public List<String> featureNames() {
    return featureNames;
  }

  public String targetName() {
    return targetName;
  }

  /** Number of rows n. */
  public int size() {
    return y.length;
  }

  /** Number of features d. */
  public int dimension() {
    return featureNames.size();
  }

  /** A copy of the n × d feature matrix. */
  public double[][] features() {
    double[][] c = new double[x.length][];
    for (int i = 0; i < x.length; i++) {
      c[i] = x[i].clone();
    }
    return c;
  }

  /** A copy of the target vector. */
  public double[] target() {
    return y.clone();
  }

  /** A copy of the features of row {@code i} (0-based). */
  public double[] row(int i) {
    Objects.checkIndex(i, x.length);
    return x[i].clone();
  }

  public Provenance provenance() {
    return provenance;
  }

  /** The rows {@code idx} (0-based), in the given order; repeats are allowed. */
  public Dataset rows(int[] idx) {
    double[][] xs = new double[idx.length][];
    double[] ys = new double[idx.length];
    for (int k = 0; k < idx.length; k++) {
      int i = Objects.checkIndex(idx[k], x.length);
      xs[k] = x[i].clone();
      ys[k] = y[i];
    }
    return new Dataset(
        name, featureNames, targetName, xs, ys, provenance.derived(idx.length + " selected rows"));
  }

  /**
   * The same rows and target with new features (e.g. standardised). Feature names are kept when
   * the number of columns is unchanged, otherwise they become {@code x1..xd}.
   *
   * @throws IllegalArgumentException if {@code x} does not have {@link #size()} rows
   */
  public Dataset withFeatures(double[][] features) {
    if (features.length != y.length) {
      throw new IllegalArgumentException(
          "expected " + y.length + " rows of features, got " + features.length);
    }
    int d = features.length == 0 ? dimension() : features[0].length;
    List<String> names = featureNames;
    if (d != dimension()) {
      String[] gen = new String[d];
      for (int j = 0; j < d; j++) {
        gen[j] = "x" + (j + 1);
      }
      names = List.of(gen);
    }
    return of(name, names, targetName, features, y, provenance.derived("features replaced"));
  }

  /**
   * The same features with a new target (e.g. labels mapped to ±1).
   *
   * @throws IllegalArgumentException if {@code target} does not have {@link #size()} entries
   */
  public Dataset withTarget(double[] target) {
    if (target.length != y.length) {
      throw new IllegalArgumentException(
          "expected " + y.length + " target values, got " + target.length);
    }
    return of(name, featureNames, targetName, x, target, provenance.derived("target replaced"));
  }

  /** A copy with another name (provenance unchanged). */
  public Dataset withName(String newName) {
    return new Dataset(Objects.requireNonNull(newName), featureNames, targetName, x, y, provenance);
  }

  @Override
  public String toString() {
    return name + ": " + size() + " rows × " + dimension() + " inputs, target " + targetName;
  }
}
