package org.approxgp.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The column file's JSON header codec against RFC 8259's grammar. */
class JsonTest {

  @Test
  void readsEveryKindOfValueInOrder() {
    Object v = Json.parse(" {\"n\": 3, \"x\": -1.5e2, \"ok\": true, \"no\": false, \"z\": null,"
        + " \"cols\": [ {\"name\": \"a\\\"b\\\\c\\u00e9\\n\"}, [] ], \"e\": {} } ");
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("n", 3L);
    expected.put("x", -150.0);
    expected.put("ok", true);
    expected.put("no", false);
    expected.put("z", null);
    expected.put("cols", List.of(Map.of("name", "a\"b\\cé\n"), List.of()));
    expected.put("e", Map.of());
    assertEquals(expected, v);
    assertEquals(List.copyOf(expected.keySet()), List.copyOf(((Map<?, ?>) v).keySet()));
  }

  @Test
  void writesCompactlyAndReadsBackWhatItWrote() {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("format", "approxgp-columns");
    h.put("version", 1);
    h.put("levels", List.of("ATL", "tab\there", "ctl\u0001"));
    h.put("big", 12345678901234L);
    String text = Json.write(h);
    assertEquals(
        "{\"format\":\"approxgp-columns\",\"version\":1,"
            + "\"levels\":[\"ATL\",\"tab\\there\",\"ctl\\u0001\"],\"big\":12345678901234}",
        text);
    Map<String, Object> back = new LinkedHashMap<>(h);
    back.put("version", 1L);
    assertEquals(back, Json.parse(text));
  }

  @Test
  void integersOutOfLongRangeAndFractionsAreDoubles() {
    assertEquals(1e20, Json.parse("100000000000000000000"));
    assertEquals(0.25, Json.parse("0.25"));
    assertEquals(-0L, Json.parse("-0"));
  }

  @Test
  void malformedTextIsRefusedWithItsPosition() {
    for (String bad : List.of(
        "",
        "{",
        "{\"a\" 1}",
        "[1,]",
        "01",
        "1.",
        "\"open",
        "{\"a\":1} x",
        "tru",
        "\"bad \\q escape\"",
        "\"raw \n newline\"",
        "-",
        "1e")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Json.parse(bad), bad);
      assertTrue(e.getMessage().startsWith("at character "), e.getMessage());
    }
  }

  @Test
  void refusesValuesJsonCannotHold() {
    assertThrows(IllegalArgumentException.class, () -> Json.write(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> Json.write(new Object()));
  }
}
