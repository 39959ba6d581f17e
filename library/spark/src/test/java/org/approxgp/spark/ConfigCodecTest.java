package org.approxgp.spark;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A task names its config's class: one that is not a record is refused before any of its code runs. */
class ConfigCodecTest {

  /** Set by {@link NotAConfig}'s static initialiser, were it ever run. */
  static volatile boolean initialised;

  static final class NotAConfig {
    static {
      initialised = true;
    }
  }

  @Test
  void aClassThatIsNotARecordIsRefusedUninitialised() {
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class,
        () -> ConfigCodec.decode(NotAConfig.class.getName(), "{}", ""));
    assertTrue(e.getMessage().contains("not a record"), e.getMessage());
    assertFalse(initialised, "the named class's static initialiser ran");
  }
}
