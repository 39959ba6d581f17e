package org.approxgp.experiment;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Test helper run in a child JVM by {@link StoreLockTest}: opens the results store of
 * {@code args[0]} for {@link #CONFIG}, prints {@link #READY}, then holds the store until its stdin
 * closes or it is killed.
 */
public final class StoreLockHolder {

  static final String EXPERIMENT = "locked";
  static final String READY = "STORE-OPEN";

  record LockCfg(int n, String what) {}

  static final LockCfg CONFIG = new LockCfg(2, "lock test");

  private StoreLockHolder() {}

  public static void main(String[] args) throws IOException {
    try (ResultStore store =
        ResultStore.open(Path.of(args[0]), EXPERIMENT, CONFIG, TrialKeys.columns(TrialKey.class))) {
      System.out.println(READY + " " + store.file());
      System.out.flush();
      while (System.in.read() >= 0) {
        // hold the store until stdin closes
      }
    }
  }
}
