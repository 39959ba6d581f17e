package org.approxgp.papers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a paper's published numbers from a committed class-path file: lines starting with {@code #} are its
 * provenance (which paper, table and print), then a header line, then one comma-separated record per line (no
 * quoting; an empty field is a value the paper does not print). A missing file, another header or a record of
 * another width is a packaging error and throws.
 */
public final class PaperCsv {
  private PaperCsv() {}

  /**
   * The records of {@code resource} (absolute class-path name), each as its fields.
   *
   * @param owner  the class whose loader finds the resource
   * @param header the expected header line
   * @throws IllegalStateException if the resource is missing or not of that shape
   */
  public static List<String[]> read(Class<?> owner, String resource, String header) {
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "paper numbers " + resource + " missing from the class path");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      List<String[]> out = new ArrayList<>();
      int width = header.split(",", -1).length;
      boolean seenHeader = false;
      int lineNo = 0;
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        lineNo++;
        if (line.startsWith("#") || line.isBlank()) {
          continue;
        }
        if (!seenHeader) {
          if (!line.equals(header)) {
            throw new IllegalStateException(resource + " line " + lineNo + ": header '" + line
                + "', expected '" + header + "'");
          }
          seenHeader = true;
          continue;
        }
        String[] f = line.split(",", -1);
        if (f.length != width) {
          throw new IllegalStateException(resource + " line " + lineNo + ": " + f.length
              + " fields, expected " + width + ": " + Arrays.toString(f));
        }
        out.add(f);
      }
      if (!seenHeader) {
        throw new IllegalStateException(resource + " has no header line '" + header + "'");
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + resource, e);
    }
  }
}
