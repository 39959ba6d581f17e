package org.approxgp.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.approxgp.data.DataException;
import org.approxgp.data.Flights;
import scala.Tuple2;

/**
 * flights-3m as Spark reads it: vega-datasets 2.11.0's {@code data/flights-3m.parquet} (the file that
 * {@link Flights} converts into its column file) read with {@code spark.read.parquet}, the airports' coordinates
 * by {@link Flights#readAirports} on the driver (a small file), and the features derived per row on the executors
 * by {@link Flights#features}, the code {@link Flights#read} uses, so row {@code i} of the file is row {@code i}
 * of {@link Flights#load()} to the bit.
 *
 * <p>The parquet file lives beside the column file in {@link Flights#cacheDir()}; {@link #ensureCached} takes it
 * from npm's own cache of the package tarball ({@code npm pack vega-datasets@2.11.0 --prefer-offline}, which
 * {@code datasets/build/flights.sh} filled) or downloads it, and checks its sha256.
 */
public final class FlightsParquet {

  /** The parquet file's name in the cache directory. */
  public static final String PARQUET_FILE = "flights-3m.parquet";
  /** sha256 of vega-datasets 2.11.0's data/flights-3m.parquet (as datasets/build/flights.sh checks it). */
  public static final String PARQUET_SHA256 =
      "756f1be82d0dbbb9acc77c3bdbcb9b994054a157ea09357a731395b6948ebf69";

  private static final String PACKAGE = "vega-datasets@2.11.0";

  private FlightsParquet() {}

  /** One source row as features and target, before any standardisation: {@code x} in {@link Flights#FEATURES}. */
  record Source(long row, double[] x, double y) implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
  }

  /**
   * The parquet file in {@link Flights#cacheDir()}, taken from npm's cache (or downloaded by npm) on first use;
   * also makes sure {@code airports.csv} is there ({@link Flights#ensureCached}).
   *
   * @throws DataException if npm is missing or fails, or the file's sha256 is not vega-datasets 2.11.0's
   */
  public static Path ensureCached() {
    Path dir = Flights.ensureCached();
    Path file = dir.resolve(PARQUET_FILE);
    if (Files.isRegularFile(file)) {
      return file;
    }
    Path work = null;
    try {
      work = Files.createTempDirectory(dir, ".parquet.");
      run(work, "npm", "pack", PACKAGE, "--prefer-offline", "--loglevel=error");
      Path tgz = work.resolve("vega-datasets-2.11.0.tgz");
      run(work, "tar", "-xzf", tgz.toString(), "package/data/" + PARQUET_FILE);
      Path got = work.resolve("package/data").resolve(PARQUET_FILE);
      String sha = sha256(got);
      if (!sha.equals(PARQUET_SHA256)) {
        throw new DataException(
            got.toString(), 0, null, "sha256 " + sha + ", expected " + PARQUET_SHA256);
      }
      Files.move(got, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("taking " + PARQUET_FILE + " from npm's " + PACKAGE, e);
    } finally {
      if (work != null) {
        deleteTree(work);
      }
    }
  }

  /**
   * The rows of {@code parquet} with their source row numbers (0-based, file order), features derived as
   * {@link Flights#read} does with the coordinates of {@code airportsCsv} (the parquet read by Spark, the
   * airports by {@link Flights#readAirports} on the driver).
   *
   * @throws IllegalStateException (in the job) on an invalid date or an airport without coordinates: the row
   *     numbers would no longer be {@link Flights#load()}'s, which drops such rows (vega-datasets 2.11.0 has none)
   */
  static JavaRDD<Source> read(SparkSession spark, Path parquet, Path airportsCsv) {
    Map<String, double[]> coords = Flights.readAirports(airportsCsv);
    JavaRDD<Row> rows = spark
        .read()
        .parquet(parquet.toString())
        .select("date", "delay", "distance", "origin", "destination")
        .javaRDD();
    String file = parquet.toString();
    return rows.zipWithIndex().map((Tuple2<Row, Long> t) -> derive(t._1(), t._2(), coords, file));
  }

  /** {@link Flights#features} of one source row. */
  private static Source derive(Row r, long row, Map<String, double[]> coords, String file) {
    double[] o = coords.get(r.getString(3));
    double[] t = coords.get(r.getString(4));
    if (o == null || t == null) {
      throw new IllegalStateException(
          file + ": row " + row + ": airport " + (o == null ? r.getString(3) : r.getString(4))
              + " has no coordinates (Flights.load drops such rows; their numbering would differ)");
    }
    double[] x = new double[Flights.FEATURES.size()];
    if (!Flights.features(
        Integer.parseInt(r.getString(0)), ((Number) r.get(2)).intValue(), o, t, x, 0)) {
      throw new IllegalStateException(file + ": row " + row + ": " + r.getString(0)
          + " is not a valid MMDDHHMM of " + Flights.YEAR);
    }
    return new Source(row, x, ((Number) r.get(1)).intValue());
  }

  private static void run(Path dir, String... command) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(command));
    Process p = new ProcessBuilder(cmd)
        .directory(dir.toFile())
        .redirectErrorStream(true)
        .start();
    p.getOutputStream().close();
    String out;
    try (InputStream in = p.getInputStream()) {
      out = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    try {
      if (!p.waitFor(300, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new DataException(
            dir.toString(), 0, null, String.join(" ", cmd) + " did not finish in 300 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + String.join(" ", cmd), e);
    }
    if (p.exitValue() != 0) {
      throw new DataException(
          dir.toString(),
          0,
          null,
          String.join(" ", cmd) + " failed (exit " + p.exitValue() + "): " + out.strip());
    }
  }

  private static String sha256(Path f) throws IOException {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      try (InputStream in = Files.newInputStream(f)) {
        byte[] buf = new byte[1 << 16];
        for (int k = in.read(buf); k > 0; k = in.read(buf)) {
          md.update(buf, 0, k);
        }
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void deleteTree(Path p) {
    try (var s = Files.walk(p)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
    } catch (IOException e) {
      // best effort: a leftover temporary directory in the cache
    }
  }
}
