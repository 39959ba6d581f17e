package org.approxgp.experiment;

/** Names of the columns that identify a trial in results files and tables. */
final class TrialKeyColumns {
  static final String METHOD = "method";
  static final String SEED = "seed";
  static final String FOLD = "fold";

  private TrialKeyColumns() {
  }

  static boolean isKeyColumn(String name) {
    return METHOD.equals(name) || SEED.equals(name) || FOLD.equals(name) || "trial".equals(name);
  }
}
