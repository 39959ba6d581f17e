package org.approxgp.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The code a result was computed with: the git commit the library JAR was built from ({@code git.properties},
 * written at build time), with "-dirty" when the working tree had uncommitted changes, or "unknown" for a build
 * outside a git clone. The {@link Runner} stores it in every row ({@link ResultRow#CODE_VERSION}).
 */
public final class CodeVersion {
  private static final String RESOURCE = "/org/approxgp/git.properties";
  private static final String CURRENT = read();

  private CodeVersion() {}

  /** E.g. "6ea6b27137", "6ea6b27137-dirty" or "unknown". */
  public static String current() {
    return CURRENT;
  }

  /**
   * A seed drawn from the code version (the first 8 bytes of the SHA-256 of {@link #current}): what
   * {@link Runner#verify(Experiment, int)} draws its trials with, so each commit checks other stored trials.
   */
  public static long seed() {
    try {
      byte[] d = java.security.MessageDigest.getInstance("SHA-256")
          .digest(CURRENT.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.nio.ByteBuffer.wrap(d).getLong();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  private static String read() {
    try (InputStream in = CodeVersion.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      String id = p.getProperty("git.commit.id.abbrev", "").strip();
      if (id.isEmpty()) {
        return "unknown";
      }
      return "true".equals(p.getProperty("git.dirty", "").strip()) ? id + "-dirty" : id;
    } catch (IOException e) {
      return "unknown";
    }
  }
}
