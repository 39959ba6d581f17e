package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlatJsonTest {

  @Test
  void roundTripsEveryValueKindExactly() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("trial", "method=ep;seed=1;fold=0");
    m.put("x", 0.1 + 0.2);
    m.put("tiny", -4.9e-324);
    m.put("whole", 3.0);
    m.put("nan", Double.NaN);
    m.put("inf", Double.NEGATIVE_INFINITY);
    m.put("n", 12345678901L);
    m.put("ok", true);
    m.put("text \"q\"", "tab\tline\nback\\slash \u0001");
    String line = FlatJson.write(m);
    assertEquals(-1, line.indexOf('\n'));
    assertEquals(m, FlatJson.read(line));
  }

  @Test
  void truncatedLinesAreRejected() {
    String line = FlatJson.write(Map.of("a", 1.5, "b", "xyz"));
    for (int cut = 0; cut < line.length(); cut++) {
      String part = line.substring(0, cut);
      assertThrows(IllegalArgumentException.class, () -> FlatJson.read(part), part);
    }
  }
}
