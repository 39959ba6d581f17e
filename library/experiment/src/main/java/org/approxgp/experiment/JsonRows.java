package org.approxgp.experiment;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The project's one JSON dialect, on Jackson: one-line objects of the results files ({@link #write},
 * {@link #read}) and the pretty-printed JSON of the command line ({@link #writePretty}).
 *
 * <p><b>Dialect.</b> Standard JSON (RFC 8259) plus the three non-finite doubles as the bare tokens
 * {@code NaN}, {@code Infinity} and {@code -Infinity} (Jackson's non-numeric numbers: written with
 * {@link JsonWriteFeature#WRITE_NAN_AS_STRINGS} off, read with
 * {@link JsonReadFeature#ALLOW_NON_NUMERIC_NUMBERS}; Python's {@code json} module reads and writes the
 * same tokens). A non-finite double is therefore always a number, never a string or {@code null}, and
 * a string {@code "NaN"} stays a string. Finite doubles are written in Java's shortest round-trip form
 * with a {@code .} or exponent ({@code 3.0}, {@code -0.0}, {@code 4.9E-324}) and read back bit-exactly;
 * integers are longs; a {@code double[]} is a JSON array of numbers.
 *
 * <p><b>Row values.</b> A results row maps string keys to {@link Double}, {@link Long} (an
 * {@link Integer} is written as a long), {@link String}, {@link Boolean} or {@code double[]}. Reading
 * returns exactly these types: a number with {@code .} or exponent, or a non-finite token, is a
 * {@link Double}; any other number a {@link Long}; an array a {@code double[]}.
 *
 * <p><b>Legacy rows.</b> Files written before the change (hand-written codec, up to commit
 * {@code 9c665e3}) wrote non-finite doubles as the tagged strings {@code "__d:NaN"},
 * {@code "__d:Infinity"} and {@code "__d:-Infinity"}; {@link #read} turns exactly these three strings
 * into doubles (and {@link #write} refuses to write them as strings, so the mapping stays
 * one-to-one). Old files stored vectors as space-joined strings of {@link Double#toString} values;
 * such a string cannot be told from an ordinary text column (e.g. {@code "lengthscale signal"} or a
 * single number written as text), so it is read back as the {@link String} it is;
 * {@link ResultRow#getDoubles} parses it when the caller asks for a vector.
 */
public final class JsonRows {

  private static final String LEGACY_DOUBLE_TAG = "__d:";

  private static final JsonFactory FACTORY = JsonFactory.builder()
      .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      // every line this class writes must read back: Jackson's default read limits on a string (20
      // M characters)
      // and a key (50 k) would make a long stored row unreadable (and a store refuse it), writing
      // has no such limit
      .streamReadConstraints(StreamReadConstraints.builder()
          .maxStringLength(Integer.MAX_VALUE)
          .maxNameLength(Integer.MAX_VALUE)
          .build())
      .build();

  private static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

  private static final ObjectWriter PRETTY =
      MAPPER.writer(new DefaultPrettyPrinter(Separators.createDefaultInstance()
              .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
              .withArrayValueSpacing(Separators.Spacing.AFTER)
              .withObjectEmptySeparator("")
              .withArrayEmptySeparator(""))
          .withObjectIndenter(new DefaultIndenter("  ", "\n"))
          .withArrayIndenter(DefaultPrettyPrinter.NopIndenter.instance));

  private JsonRows() {}

  /**
   * One row as a one-line JSON object (no line break, none inside: control characters are escaped).
   *
   * @throws IllegalArgumentException on a value of another type, or a string that reads back as a
   *                                  legacy non-finite double
   */
  public static String write(Map<String, ?> row) {
    StringWriter sw = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(sw)) {
      g.writeStartObject();
      for (Map.Entry<String, ?> e : row.entrySet()) {
        g.writeFieldName(e.getKey());
        writeValue(g, e.getKey(), e.getValue());
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sw.toString();
  }

  private static void writeValue(JsonGenerator g, String key, Object v) throws IOException {
    if (v instanceof Double d) {
      g.writeNumber(d);
    } else if (v instanceof Long || v instanceof Integer) {
      g.writeNumber(((Number) v).longValue());
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof String s) {
      if (legacyDouble(s) != null) {
        throw new IllegalArgumentException(
            "string value '" + s + "' of '" + key + "' would read back as a double");
      }
      g.writeString(s);
    } else if (v instanceof double[] a) {
      g.writeArray(a, 0, a.length);
    } else {
      throw new IllegalArgumentException("unsupported value of '" + key + "': "
          + (v == null ? "null" : v.getClass().getName()));
    }
  }

  /**
   * Parses one row written by {@link #write} (or by the legacy codec), keys in file order.
   *
   * @throws IllegalArgumentException on anything malformed or truncated, a duplicate key, trailing
   *                                  characters, or a value that is not a row value (null, nested
   *                                  object, non-numeric array element, integer beyond a long)
   */
  public static Map<String, Object> read(String line) {
    try (JsonParser p = FACTORY.createParser(line)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("expected '{' at the start");
      }
      LinkedHashMap<String, Object> out = new LinkedHashMap<>();
      for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
        out.put(key, readValue(p, key));
      }
      if (p.currentToken() != JsonToken.END_OBJECT) {
        throw new IllegalArgumentException(
            "expected a key or '}' at " + p.currentLocation().getColumnNr());
      }
      if (p.nextToken() != null) {
        throw new IllegalArgumentException(
            "trailing characters at " + p.currentLocation().getColumnNr());
      }
      return out;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          e.getOriginalMessage() + " at column "
              + (e.getLocation() == null ? "?" : e.getLocation().getColumnNr()),
          e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Object readValue(JsonParser p, String key) throws IOException {
    JsonToken t = p.nextToken();
    if (t == null) {
      throw new IllegalArgumentException("unexpected end after key '" + key + "'");
    }
    switch (t) {
      case VALUE_STRING -> {
        String s = p.getText();
        Double d = legacyDouble(s);
        return d != null ? d : s;
      }
      case VALUE_NUMBER_FLOAT -> {
        return p.getDoubleValue();
      }
      case VALUE_NUMBER_INT -> {
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
          throw new IllegalArgumentException(
              "integer of '" + key + "' exceeds a long: " + p.getText());
        }
        return p.getLongValue();
      }
      case VALUE_TRUE -> {
        return Boolean.TRUE;
      }
      case VALUE_FALSE -> {
        return Boolean.FALSE;
      }
      case START_ARRAY -> {
        double[] a = new double[8];
        int n = 0;
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
          if (e == null) {
            throw new IllegalArgumentException("unexpected end in array '" + key + "'");
          }
          if (e != JsonToken.VALUE_NUMBER_FLOAT && e != JsonToken.VALUE_NUMBER_INT) {
            throw new IllegalArgumentException("array '" + key + "' holds a non-number: " + e);
          }
          if (n == a.length) {
            a = Arrays.copyOf(a, 2 * n);
          }
          a[n++] = p.getDoubleValue();
        }
        return Arrays.copyOf(a, n);
      }
      default ->
        throw new IllegalArgumentException("value of '" + key + "' is not a row value: " + t);
    }
  }

  /** The double a legacy tagged string stands for, or null if {@code s} is not one. */
  private static Double legacyDouble(String s) {
    if (!s.startsWith(LEGACY_DOUBLE_TAG)) {
      return null;
    }
    return switch (s.substring(LEGACY_DOUBLE_TAG.length())) {
      case "NaN" -> Double.NaN;
      case "Infinity" -> Double.POSITIVE_INFINITY;
      case "-Infinity" -> Double.NEGATIVE_INFINITY;
      default -> null;
    };
  }

  /**
   * Pretty-printed JSON of a value tree, ending in a line break: objects one entry per line indented
   * by two spaces with {@code "key": value}, arrays on one line as {@code [a, b]}. Values may be maps
   * (keys by {@code toString}), lists, {@code double[]}, numbers, booleans, strings or null; any other
   * object is written as its {@code toString()}. Non-finite doubles use the dialect above.
   */
  public static String writePretty(Object value) {
    try {
      return PRETTY.writeValueAsString(plain(value)) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e.getOriginalMessage(), e);
    }
  }

  private static Object plain(Object v) {
    if (v == null
        || v instanceof Number
        || v instanceof Boolean
        || v instanceof String
        || v instanceof double[]) {
      return v;
    }
    if (v instanceof Map<?, ?> m) {
      LinkedHashMap<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, val) -> out.put(String.valueOf(k), plain(val)));
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      l.forEach(x -> out.add(plain(x)));
      return out;
    }
    return v.toString();
  }
}
