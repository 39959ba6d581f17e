package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Engine selection by name and by environment, in the core alone (no Spark module on this class path). */
class EnginesTest {

  @Test
  void localEngineIsTheThreadPool() {
    assertEquals("local(3 threads)", Engines.executor("local", null, 3).toString());
    assertEquals("local(" + Runtime.getRuntime().availableProcessors() + " threads)",
        Engines.executor("LOCAL", null, 0).toString());
    assertThrows(IllegalArgumentException.class, () -> Engines.executor("local", "local[2]", 1));
    assertThrows(IllegalArgumentException.class, () -> Engines.executor("local", null, -1));
  }

  @Test
  void sparkWithoutItsModuleSaysWhatToBuild() {
    var e = assertThrows(Engines.EngineUnavailableException.class, () -> Engines.executor("spark", null, 0));
    assertTrue(e.getMessage().contains("mvn -pl spark -am -DskipTests package"), e.getMessage());
    var u = assertThrows(IllegalArgumentException.class, () -> Engines.executor("flink", null, 0));
    assertTrue(u.getMessage().contains("unknown engine 'flink'"), u.getMessage());
  }

  @Test
  void defaultsFollowTheEngineProperty() {
    String old = System.getProperty("approxgp.engine");
    try {
      System.setProperty("approxgp.engine", "spark");
      assertEquals("spark", Engines.fromEnvironment());
      assertThrows(Engines.EngineUnavailableException.class, Runner::defaults);
      System.setProperty("approxgp.engine", "local");
      assertTrue(Runner.defaults().executor().toString().startsWith("local("));
    } finally {
      if (old == null) {
        System.clearProperty("approxgp.engine");
      } else {
        System.setProperty("approxgp.engine", old);
      }
    }
  }
}
