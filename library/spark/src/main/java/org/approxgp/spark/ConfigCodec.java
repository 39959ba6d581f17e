package org.approxgp.spark;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.approxgp.experiment.ConfigHash;

/**
 * Config records to JSON and back (Jackson's record support), so a task ships its experiment's config
 * as text: records are not {@link java.io.Serializable}. Doubles are written in their shortest
 * round-trip form and non-finite ones as bare tokens, so the decoded config equals the original; the
 * decoder checks that through {@link ConfigHash#canonical} and refuses a config that does not come back
 * the same.
 */
final class ConfigCodec {

  private static final JsonMapper JSON = JsonMapper.builder()
      .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  private ConfigCodec() {}

  static String encode(Record config) {
    try {
      return JSON.writeValueAsString(config);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "config " + config.getClass().getName() + " cannot be written as JSON: "
              + e.getOriginalMessage(),
          e);
    }
  }

  /**
   * The config of class {@code className} from {@code json}.
   *
   * @param canonical the original's {@link ConfigHash#canonical} string, checked against the decoded one
   * @throws IllegalArgumentException if the class is missing or not a record, the JSON does not decode,
   *                                  or the decoded config is not the original
   */
  static Record decode(String className, String json, String canonical) {
    Class<?> type;
    try {
      ClassLoader cl = Thread.currentThread().getContextClassLoader();
      // not initialised: a task names the class, and no static initialiser of a class that is not a
      // config runs
      type = Class.forName(className, false, cl == null ? ConfigCodec.class.getClassLoader() : cl);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "config class " + className + " is not on the executor's class path", e);
    }
    if (!type.isRecord()) {
      throw new IllegalArgumentException("config class " + className + " is not a record");
    }
    Record r;
    try {
      r = (Record) JSON.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "config " + className + " does not decode from " + json + ": " + e.getOriginalMessage(),
          e);
    }
    String back = ConfigHash.canonical(r);
    if (!back.equals(canonical)) {
      throw new IllegalArgumentException("config " + className + " does not survive JSON: sent "
          + canonical + ", decoded " + back);
    }
    return r;
  }
}
