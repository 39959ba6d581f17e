package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigHashTest {

  enum Lik {
    PROBIT,
    POISSON
  }

  record Inner(double eps, List<Integer> sizes) {}

  record Outer(String dataset, Lik lik, Inner inner, double[] grid, Map<String, Double> extra) {}

  private static Outer outer(double eps) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("z", 1.0);
    m.put("a", 0.1);
    return new Outer(
        "iono\"sphere", Lik.PROBIT, new Inner(eps, List.of(1, 2)), new double[] {0.5, 1e-300}, m);
  }

  @Test
  void canonicalStringListsEveryComponentRecursively() {
    assertEquals(
        "Outer{dataset=\"iono\\\"sphere\", lik=PROBIT, inner=Inner{eps=0.1, sizes=[1, 2]},"
            + " grid=[0.5, 1.0E-300], extra={a=0.1, z=1.0}}",
        ConfigHash.canonical(outer(0.1)));
  }

  @Test
  void equalConfigsHashEqualAndAnyChangeChangesTheHash() {
    assertEquals(ConfigHash.hash(outer(0.1)), ConfigHash.hash(outer(0.1)));
    assertNotEquals(ConfigHash.hash(outer(0.1)), ConfigHash.hash(outer(Math.nextUp(0.1))));
    assertEquals(16, ConfigHash.hash(outer(0.1)).length());
  }

  @Test
  void unsupportedValuesAreRejected() {
    record Bad(Object o) {}
    assertThrows(IllegalArgumentException.class, () -> ConfigHash.canonical(new Bad(new Object())));
  }
}
