package org.approxgp.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * flights-3m, the sVBSSGP paper's AIRLINE role (Hoang, Hoang &amp; Low 2017, §5): 3,000,000 US domestic
 * flights of January–June 2001 from the npm package {@code vega-datasets@2.11.0}
 * ({@code data/flights-3m.parquet}, coordinates from {@code data/airports.csv}).
 *
 * <p>Not committed: {@code datasets/build/flights.sh} fetches the package with npm, checks its sha256 and
 * converts the parquet file once into a {@link ColumnFile} ({@code flights-3m.apc}, 60 MB) in the cache
 * directory; {@link #load} runs it on first use. Cache directory: system property
 * {@code approxgp.data.cache}, else environment variable {@code APPROXGP_DATA_CACHE}, else
 * {@code <project>/.cache/datasets} (git-ignored).
 *
 * <p>Features ({@link #FEATURES}), derived here from the source columns {@code date} (MMDDHHMM),
 * {@code distance}, {@code origin}, {@code destination}: month (1–12), day of month, day of week of the
 * 2001 calendar (ISO: 1 = Monday … 7 = Sunday; 1 January 2001 was a Monday), departure minute of the day
 * (60·HH + MM, 0–1439; vega-datasets does not say whether scheduled or actual), distance (miles), origin
 * latitude/longitude, destination latitude/longitude (degrees). Target: {@code delay}, the arrival delay in
 * minutes, unchanged (negative = early). Rows whose origin or destination has no coordinates in
 * {@code airports.csv} are dropped and counted in the
 * provenance (none in vega-datasets 2.11.0: all 229 origins and 228 destinations have coordinates).
 */
public final class Flights {
  /** Input names, in column order. */
  public static final List<String> FEATURES = List.of(
      "month",
      "day_of_month",
      "day_of_week",
      "dep_minute",
      "distance",
      "origin_lat",
      "origin_lon",
      "dest_lat",
      "dest_lon");
  /** Target name. */
  public static final String TARGET = "arr_delay";
  /** Rows in the full data set. */
  public static final int ROWS = 3_000_000;
  /** The year of the source's dates (used for the day of week). */
  public static final int YEAR = 2001;
  /** File names in the cache directory. */
  public static final String COLUMN_FILE = "flights-3m.apc";

  public static final String AIRPORTS_FILE = "airports.csv";
  /** The fetch-and-convert script, relative to the project root. */
  public static final String FETCH_SCRIPT = "datasets/build/flights.sh";

  private Flights() {}

  /** All 3,000,000 rows, fetching and converting the data first if the cache lacks it. */
  public static RegressionSet load() {
    return load(Integer.MAX_VALUE);
  }

  /**
   * The first {@code limit} rows in the source's order (sorted by date: a small limit gives early January
   * only — for smoke runs; use {@link RegressionDatasets#flightsSample} for a random subset).
   */
  public static RegressionSet load(int limit) {
    Path dir = ensureCached();
    return read(dir.resolve(COLUMN_FILE), dir.resolve(AIRPORTS_FILE), limit);
  }

  /**
   * Derives the features from a column file with columns {@code date, delay, distance, origin, destination}
   * (origin and destination coded by IATA levels) and an airports CSV with columns {@code iata} first and
   * {@code latitude, longitude} last.
   *
   * @throws DataException on a missing or malformed file, an invalid 2001 date or time, or when no row is
   *     left after dropping rows whose airports lack coordinates
   */
  public static RegressionSet read(Path columnFile, Path airportsCsv, int limit) {
    ColumnFile f = ColumnFile.read(columnFile, limit);
    Map<String, double[]> coords = readAirports(airportsCsv);
    int[] date = ints(f, "date", columnFile);
    int[] delay = ints(f, "delay", columnFile);
    int[] distance = ints(f, "distance", columnFile);
    ints(f, "origin", columnFile);
    ints(f, "destination", columnFile);
    ColumnFile.Column origin = f.column("origin");
    ColumnFile.Column dest = f.column("destination");
    double[][] oc = levelCoords(origin.levels(), coords);
    double[][] dc = levelCoords(dest.levels(), coords);
    int n = f.n();
    int d = FEATURES.size();
    int kept = 0;
    for (int i = 0; i < n; i++) {
      if (oc[origin.i32()[i]] != null && dc[dest.i32()[i]] != null) {
        kept++;
      }
    }
    if (kept == 0) {
      throw new DataException(
          columnFile.toString(), 0, null, "no row has airports with coordinates in " + airportsCsv);
    }
    double[] x = new double[kept * d];
    double[] y = new double[kept];
    int k = 0;
    for (int i = 0; i < n; i++) {
      double[] o = oc[origin.i32()[i]];
      double[] t = dc[dest.i32()[i]];
      if (o == null || t == null) {
        continue;
      }
      if (!features(date[i], distance[i], o, t, x, k * d)) {
        throw new DataException(
            columnFile.toString(),
            0,
            "date",
            "row " + i + ": " + String.format("%08d", date[i]) + " is not a valid MMDDHHMM of "
                + YEAR);
      }
      y[k] = delay[i];
      k++;
    }
    String source = f.meta().getOrDefault("source", columnFile.toString());
    String detail = "column file " + columnFile.getFileName() + " (source sha256 "
        + f.meta().getOrDefault("source_sha256", "?") + "), " + n + " rows read"
        + (limit < Integer.MAX_VALUE ? " (limit " + limit + ")" : "") + ", " + (n - kept)
        + " dropped for airports without coordinates, " + kept + " kept";
    return new RegressionSet(
        "flights-3m",
        FEATURES,
        TARGET,
        new RegressionData(x, kept, d, y),
        new Provenance(source, detail));
  }

  /** Whether the cache holds the converted data (nothing is fetched). */
  public static boolean isCached() {
    Path dir = cacheDir();
    return Files.isRegularFile(dir.resolve(COLUMN_FILE))
        && Files.isRegularFile(dir.resolve(AIRPORTS_FILE));
  }

  /**
   * The cache directory, fetched and converted first if incomplete: runs {@value #FETCH_SCRIPT} (needs
   * node and npm; a 17 MB download, seconds to convert). Its output goes to {@code <cache>/flights-3m-fetch.log};
   * {@code System.err} gets one line when the fetch starts and one when it ends (a notebook's report shows two
   * lines, not the download's log).
   *
   * @throws DataException when the script is not found or fails (e.g. offline), with its last message
   */
  public static Path ensureCached() {
    Path dir = cacheDir();
    if (isCached()) {
      return dir;
    }
    Path root = projectRoot();
    Path script = root == null ? null : root.resolve(FETCH_SCRIPT);
    if (script == null || !Files.isRegularFile(script)) {
      throw new DataException(
          dir.resolve(COLUMN_FILE).toString(),
          0,
          null,
          "flights-3m is not cached and " + FETCH_SCRIPT
              + " was not found (run inside the project clone, or set APPROXGP_HOME to it)");
    }
    Path log = dir.resolve("flights-3m-fetch.log");
    System.err.println("flights-3m: not cached; fetching it once with " + FETCH_SCRIPT + " (log: "
        + log.getFileName() + " in the data cache) ...");
    long t0 = System.nanoTime();
    ProcessBuilder pb =
        new ProcessBuilder("bash", script.toString(), dir.toString()).redirectErrorStream(true);
    String last = "";
    int rc;
    try {
      Files.createDirectories(dir);
      Process p = pb.start();
      p.getOutputStream().close();
      try (BufferedReader r = new BufferedReader(
              new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
          java.io.Writer w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          w.write(line);
          w.write('\n');
          if (!line.isBlank()) {
            last = line.strip();
          }
        }
      }
      rc = p.waitFor();
    } catch (IOException e) {
      throw new UncheckedIOException("running " + script, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while fetching flights-3m", e);
    }
    if (rc != 0 || !isCached()) {
      throw new DataException(
          dir.resolve(COLUMN_FILE).toString(),
          0,
          null,
          "fetching flights-3m failed (exit " + rc + "): " + last + " (full log: " + log + ")");
    }
    System.err.printf(
        java.util.Locale.ROOT,
        "flights-3m: fetched and converted in %.0f s%n",
        (System.nanoTime() - t0) * 1e-9);
    return dir;
  }

  /**
   * The cache directory: property {@code approxgp.data.cache}, environment {@code APPROXGP_DATA_CACHE},
   * else {@code <project>/.cache/datasets}, else (outside a project clone) {@code ~/.cache/approxgp/datasets}.
   */
  public static Path cacheDir() {
    String v = System.getProperty("approxgp.data.cache");
    if (v == null || v.isBlank()) {
      v = System.getenv("APPROXGP_DATA_CACHE");
    }
    if (v != null && !v.isBlank()) {
      return Path.of(v).toAbsolutePath();
    }
    Path root = projectRoot();
    if (root != null) {
      return root.resolve(".cache").resolve("datasets");
    }
    return Path.of(System.getProperty("user.home"), ".cache", "approxgp", "datasets");
  }

  /**
   * The project clone: property {@code approxgp.home} or environment {@code APPROXGP_HOME}, else the nearest
   * directory holding {@value #FETCH_SCRIPT} at or above the working directory or the library JAR; null
   * when there is none.
   */
  static Path projectRoot() {
    String v = System.getProperty("approxgp.home");
    if (v == null || v.isBlank()) {
      v = System.getenv("APPROXGP_HOME");
    }
    if (v != null && !v.isBlank()) {
      return Path.of(v).toAbsolutePath();
    }
    Path found = upwards(Path.of("").toAbsolutePath());
    if (found != null) {
      return found;
    }
    try {
      var src = Flights.class.getProtectionDomain().getCodeSource();
      return src == null ? null : upwards(Path.of(src.getLocation().toURI()).toAbsolutePath());
    } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
      return null;
    }
  }

  private static Path upwards(Path start) {
    for (Path p = start; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve(FETCH_SCRIPT))) {
        return p;
      }
    }
    return null;
  }

  private static int[] ints(ColumnFile f, String name, Path file) {
    if (f.columns().stream().noneMatch(c -> c.name().equals(name))) {
      throw new DataException(file.toString(), 0, name, "column missing from the column file");
    }
    int[] v = f.column(name).i32();
    if (v == null) {
      throw new DataException(file.toString(), 0, name, "expected an i32 column");
    }
    return v;
  }

  /** Coordinates (lat, lon) of each level, or null for a level without coordinates. */
  private static double[][] levelCoords(List<String> levels, Map<String, double[]> coords) {
    double[][] c = new double[levels.size()][];
    for (int i = 0; i < c.length; i++) {
      c[i] = coords.get(levels.get(i));
    }
    return c;
  }

  /** Day of the year (0-based) of the first of each month of {@link #YEAR}. */
  private static final int[] MONTH_START = monthStarts();

  /**
   * Writes one flight's {@link #FEATURES} into {@code x[off .. off + 9)}: month, day of month, ISO day of week
   * (of {@link #YEAR}), departure minute, distance, origin latitude/longitude, destination latitude/longitude.
   * The one derivation of the features, for {@link #read} and for readers of the source parquet (the Spark
   * module's).
   *
   * @param mmddhhmm the source's {@code date} column, MMDDHHMM
   * @param origin   (latitude, longitude) of the origin airport
   * @param dest     (latitude, longitude) of the destination airport
   * @return false (nothing written) if {@code mmddhhmm} is not a valid date and time of {@link #YEAR}
   */
  public static boolean features(
      int mmddhhmm, int distance, double[] origin, double[] dest, double[] x, int off) {
    int month = mmddhhmm / 1_000_000;
    int day = mmddhhmm / 10_000 % 100;
    int hh = mmddhhmm / 100 % 100;
    int mm = mmddhhmm % 100;
    if (mmddhhmm < 0
        || month < 1
        || month > 12
        || day < 1
        || day > lengthOfMonth(month)
        || hh > 23
        || mm > 59) {
      return false;
    }
    x[off] = month;
    x[off + 1] = day;
    // ISO day of week; 1 January 2001 was a Monday, so day-of-year 0 -> 1
    x[off + 2] = (MONTH_START[month - 1] + day - 1) % 7 + 1;
    x[off + 3] = 60 * hh + mm;
    x[off + 4] = distance;
    x[off + 5] = origin[0];
    x[off + 6] = origin[1];
    x[off + 7] = dest[0];
    x[off + 8] = dest[1];
    return true;
  }

  private static int[] monthStarts() {
    int[] s = new int[12];
    for (int m = 1; m < 12; m++) {
      s[m] = s[m - 1] + lengthOfMonth(m);
    }
    return s;
  }

  private static int lengthOfMonth(int month) {
    try {
      return LocalDate.of(YEAR, month, 1).lengthOfMonth();
    } catch (DateTimeException e) {
      return 0;
    }
  }

  /**
   * IATA code → (latitude, longitude) from vega-datasets' {@code airports.csv}: header
   * {@code iata,name,city,state,country,latitude,longitude}; names may hold quoted commas; {@code NA} or
   * empty coordinates leave the airport out.
   */
  public static Map<String, double[]> readAirports(Path csv) {
    List<String> lines;
    try {
      lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new DataException(csv.toString(), 0, null, "file not found");
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + csv, e);
    }
    if (lines.isEmpty()) {
      throw new DataException(csv.toString(), 0, null, "empty file");
    }
    List<String> head = split(lines.get(0));
    int lat = head.indexOf("latitude");
    int lon = head.indexOf("longitude");
    int code = head.indexOf("iata");
    if (lat < 0 || lon < 0 || code < 0) {
      throw new DataException(
          csv.toString(), 1, null, "need columns iata, latitude, longitude; found " + head);
    }
    Map<String, double[]> out = new HashMap<>();
    for (int i = 1; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      List<String> f = split(lines.get(i));
      if (f.size() != head.size()) {
        throw new DataException(
            csv.toString(), i + 1, null, f.size() + " fields, header has " + head.size());
      }
      try {
        double a = Double.parseDouble(f.get(lat));
        double b = Double.parseDouble(f.get(lon));
        if (Double.isFinite(a) && Double.isFinite(b)) {
          out.put(f.get(code), new double[] {a, b});
        }
      } catch (NumberFormatException e) {
        // NA or empty coordinates: airport left out, its flights dropped (counted in the
        // provenance)
      }
    }
    return out;
  }

  /** Splits one CSV line at commas outside double quotes (RFC 4180 quoting, no line breaks in fields). */
  private static List<String> split(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cur.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cur.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        out.add(cur.toString().strip());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    out.add(cur.toString().strip());
    return out;
  }
}
