package org.approxgp.anchors;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;

/**
 * The GPML 4.2 anchors on the Ionosphere split (test resources {@code anchors/gpml-ionosphere-*},
 * copied from shared/anchors; see the header of {@code gpml-ionosphere-references.txt}).
 */
public final class GpmlIonosphere {

  /** One GPML reference run. */
  public record Entry(
      String kernel,
      int setting,
      String inference,
      double[] lengthscales,
      double signalVariance,
      double logEvidence,
      double[] latentMean,
      double[] latentVariance,
      double[] logLik) {

    public Kernel kernelObject() {
      return kernel.equals("se-iso")
          ? SquaredExponential.iso(lengthscales[0], signalVariance)
          : SquaredExponential.ard(lengthscales, signalVariance);
    }

    @Override
    public String toString() {
      return kernel + "#" + setting + "/" + inference;
    }
  }

  /** Features (n × 33) and ±1 labels of one split. */
  public record Split(double[][] x, double[] y) {}

  private GpmlIonosphere() {}

  private static List<String> lines(String resource) {
    try (InputStream in = GpmlIonosphere.class.getResourceAsStream("/anchors/" + resource)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource anchors/" + resource);
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      List<String> out = new ArrayList<>();
      for (String line; (line = r.readLine()) != null; ) {
        if (!line.isBlank() && !line.startsWith("#")) {
          out.add(line.trim());
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Split train() {
    return split("gpml-ionosphere-train.csv");
  }

  public static Split test() {
    return split("gpml-ionosphere-test.csv");
  }

  /** The split's two CSV files (header {@code label,x1,...}) copied into a directory, as a command line reads them. */
  public record CsvFiles(Path train, Path test) {}

  /** Copies {@code train.csv} and {@code test.csv} of the split into {@code dir}. */
  public static CsvFiles copyCsv(Path dir) throws IOException {
    CsvFiles f = new CsvFiles(dir.resolve("train.csv"), dir.resolve("test.csv"));
    copy("gpml-ionosphere-train.csv", f.train());
    copy("gpml-ionosphere-test.csv", f.test());
    return f;
  }

  private static void copy(String resource, Path to) throws IOException {
    try (InputStream in = GpmlIonosphere.class.getResourceAsStream("/anchors/" + resource)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource anchors/" + resource);
      }
      Files.copy(in, to);
    }
  }

  private static Split split(String file) {
    List<String> l = lines(file);
    int n = l.size() - 1;
    double[][] x = new double[n][];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      double[] v = Arrays.stream(l.get(i + 1).split(","))
          .mapToDouble(Double::parseDouble)
          .toArray();
      x[i] = Arrays.copyOf(v, v.length - 1);
      y[i] = v[v.length - 1];
    }
    return new Split(x, y);
  }

  public static List<Entry> entries() {
    List<String> l = lines("gpml-ionosphere-references.txt");
    List<Entry> out = new ArrayList<>();
    for (int i = 0; i < l.size(); i += 5) {
      String[] h = l.get(i).split(" ");
      out.add(new Entry(
          h[1],
          Integer.parseInt(h[2]),
          h[3],
          values(l.get(i + 1)),
          Double.parseDouble(h[4]),
          Double.parseDouble(h[5]),
          values(l.get(i + 2)),
          values(l.get(i + 3)),
          values(l.get(i + 4))));
    }
    return out;
  }

  public static List<Entry> entries(String inference) {
    return entries().stream().filter(e -> e.inference().equals(inference)).toList();
  }

  private static double[] values(String line) {
    String[] p = line.split(" ");
    return Arrays.stream(p, 1, p.length).mapToDouble(Double::parseDouble).toArray();
  }
}
