package org.approxgp.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * flights-3m feature derivation on a tiny generated column file (always), and the real 3,000,000 rows when
 * the cache holds them (skipped otherwise: {@code datasets/build/flights.sh} fetches them).
 */
class FlightsTest {
  @TempDir
  Path dir;

  private static final String AIRPORTS = String.join(
      "\n",
      "iata,name,city,state,country,latitude,longitude",
      "ANC,Ted Stevens Anchorage International,Anchorage,AK,USA,61.17432028,-149.9961856",
      "BTR,\"Baton Rouge Metropolitan, Ryan\",Baton Rouge,LA,USA,30.53316083,-91.14963444",
      "LAX,Los Angeles International,Los Angeles,CA,USA,33.94253611,-118.4080744",
      "XXX,Nowhere,NA,NA,USA,NA,NA",
      "");

  private Path airports() throws IOException {
    Path a = dir.resolve("airports.csv");
    Files.writeString(a, AIRPORTS, StandardCharsets.UTF_8);
    return a;
  }

  private Path flights(int[] date, int[] delay, int[] distance, int[] origin, int[] dest) {
    List<String> levels = List.of("ANC", "BTR", "LAX", "XXX", "ZZZ");
    Path f = dir.resolve("f.apc");
    new ColumnFile(
            date.length,
            List.of(
                ColumnFile.Column.ofInts("date", date),
                ColumnFile.Column.ofInts("delay", delay),
                ColumnFile.Column.ofInts("distance", distance),
                ColumnFile.Column.ofCodes("origin", origin, levels),
                ColumnFile.Column.ofCodes("destination", dest, levels)),
            Map.of("source", "generated", "source_sha256", "none"))
        .write(f);
    return f;
  }

  @Test
  void featuresAreDerivedFromDateDistanceAndAirports() throws IOException {
    Path f = flights(
        new int[] {1010001, 6302359, 2281230, 7041015},
        new int[] {-13, 7, 0, 120},
        new int[] {2345, 10, 1500, 300},
        new int[] {0, 2, 1, 2},
        new int[] {2, 1, 0, 0});
    RegressionSet s = Flights.read(f, airports(), Integer.MAX_VALUE);
    assertEquals(Flights.FEATURES, s.featureNames());
    assertEquals("arr_delay", s.targetName());
    RegressionData d = s.data();
    assertEquals(4, d.n());
    assertEquals(9, d.d());
    // 1 Jan 2001 00:01 (Monday), ANC -> LAX
    assertArrayEquals(
        new double[] {1, 1, 1, 1, 2345, 61.17432028, -149.9961856, 33.94253611, -118.4080744},
        d.row(0));
    // 30 Jun 2001 23:59 (Saturday), LAX -> BTR (quoted comma in the airport's name)
    assertArrayEquals(
        new double[] {6, 30, 6, 1439, 10, 33.94253611, -118.4080744, 30.53316083, -91.14963444},
        d.row(1));
    // 28 Feb 2001 12:30 (Wednesday); 4 Jul 2001 10:15 (Wednesday)
    assertArrayEquals(new double[] {2, 28, 3, 750}, java.util.Arrays.copyOf(d.row(2), 4));
    assertArrayEquals(new double[] {7, 4, 3, 615}, java.util.Arrays.copyOf(d.row(3), 4));
    assertArrayEquals(new double[] {-13, 7, 0, 120}, d.y());
    assertTrue(s.provenance().detail().contains("0 dropped"), s.provenance().toString());
    assertEquals("generated", s.provenance().source());
  }

  @Test
  void dayOfWeekMatchesTheCalendarOn2001EveryDay() throws IOException {
    int days = LocalDate.of(2001, 12, 31).getDayOfYear();
    int[] date = new int[days];
    for (int k = 0; k < days; k++) {
      LocalDate t = LocalDate.ofYearDay(2001, k + 1);
      date[k] = t.getMonthValue() * 1_000_000 + t.getDayOfMonth() * 10_000 + 1200;
    }
    int[] zeros = new int[days];
    RegressionData d = Flights.read(
            flights(date, zeros, zeros, zeros, zeros), airports(), Integer.MAX_VALUE)
        .data();
    for (int k = 0; k < days; k++) {
      LocalDate t = LocalDate.ofYearDay(2001, k + 1);
      assertEquals(t.getDayOfWeek().getValue(), d.x(k, 2), t.toString());
      assertEquals(t.getMonthValue(), d.x(k, 0));
      assertEquals(t.getDayOfMonth(), d.x(k, 1));
    }
  }

  @Test
  void rowsWhoseAirportLacksCoordinatesAreDroppedAndCounted() throws IOException {
    // XXX has NA coordinates, ZZZ is not in airports.csv at all
    Path f = flights(
        new int[] {1010001, 1010002, 1010003, 1010004},
        new int[] {1, 2, 3, 4},
        new int[] {5, 6, 7, 8},
        new int[] {0, 3, 0, 2},
        new int[] {2, 0, 4, 0});
    RegressionSet s = Flights.read(f, airports(), Integer.MAX_VALUE);
    assertEquals(2, s.size());
    assertArrayEquals(new double[] {1, 4}, s.data().y());
    assertTrue(s.provenance().detail().contains("2 dropped"), s.provenance().toString());
    assertTrue(s.provenance().detail().contains("2 kept"), s.provenance().toString());
  }

  @Test
  void limitAndInvalidDatesAndMissingFiles() throws IOException {
    Path f = flights(
        new int[] {1010001, 2290000},
        new int[] {1, 2},
        new int[] {5, 6},
        new int[] {0, 0},
        new int[] {2, 2});
    Path a = airports();
    assertEquals(1, Flights.read(f, a, 1).size());
    DataException e = assertThrows(DataException.class, () -> Flights.read(f, a, 2));
    assertTrue(e.getMessage().contains("02290000"), e.getMessage()); // 2001 is no leap year
    Path g =
        flights(new int[] {1012400}, new int[] {1}, new int[] {5}, new int[] {0}, new int[] {2});
    assertThrows(DataException.class, () -> Flights.read(g, a, 9));
    assertThrows(DataException.class, () -> Flights.read(dir.resolve("none.apc"), a, 9));
    Path noDest = dir.resolve("nodest.apc");
    new ColumnFile(
            1,
            List.of(
                ColumnFile.Column.ofInts("date", new int[] {1010001}),
                ColumnFile.Column.ofInts("delay", new int[] {1}),
                ColumnFile.Column.ofInts("distance", new int[] {2}),
                ColumnFile.Column.ofCodes("origin", new int[] {0}, List.of("ANC"))),
            Map.of())
        .write(noDest);
    DataException m = assertThrows(DataException.class, () -> Flights.read(noDest, a, 9));
    assertTrue(m.getMessage().contains("destination"), m.getMessage());
    assertThrows(DataException.class, () -> Flights.read(g, dir.resolve("none.csv"), 9));
  }

  /** Runs {@code body} with the project root and cache directory pointed at {@code root} and {@code cache}. */
  private static void withPaths(Path root, Path cache, Runnable body) {
    String home = System.getProperty("approxgp.home");
    String dataCache = System.getProperty("approxgp.data.cache");
    System.setProperty("approxgp.home", root.toString());
    System.setProperty("approxgp.data.cache", cache.toString());
    try {
      body.run();
    } finally {
      restore("approxgp.home", home);
      restore("approxgp.data.cache", dataCache);
    }
  }

  private static void restore(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }

  private Path fakeProject(String scriptBody) throws IOException {
    Path root = dir.resolve("project");
    Path script = root.resolve(Flights.FETCH_SCRIPT);
    Files.createDirectories(script.getParent());
    Files.writeString(
        script, "#!/usr/bin/env bash\nset -eu\n" + scriptBody + "\n", StandardCharsets.UTF_8);
    return root;
  }

  @Test
  void firstUseRunsTheFetchScriptOnceThenReadsTheCache() throws IOException {
    Path tiny =
        flights(new int[] {3150830}, new int[] {42}, new int[] {900}, new int[] {0}, new int[] {2});
    Path air = airports();
    Path log = dir.resolve("runs.log");
    // a stand-in for datasets/build/flights.sh: copies the tiny files into the cache dir given as
    // $1
    Path root = fakeProject("echo run >> '" + log + "'\nmkdir -p \"$1\"\ncp '" + tiny + "' \"$1/"
        + Flights.COLUMN_FILE + "\"\ncp '" + air + "' \"$1/" + Flights.AIRPORTS_FILE + "\"");
    Path cache = dir.resolve("cache");
    withPaths(root, cache, () -> {
      assertTrue(!Flights.isCached());
      RegressionSet s = Flights.load();
      assertEquals(1, s.size());
      assertArrayEquals(
          new double[] {3, 15, 4, 510, 900}, java.util.Arrays.copyOf(s.data().row(0), 5));
      assertTrue(Flights.isCached());
      assertEquals(42.0, Flights.load().data().y()[0]);
    });
    assertEquals(List.of("run"), Files.readAllLines(log), "the script runs only on first use");
  }

  @Test
  void aFailedFetchIsOneClearError() throws IOException {
    Path root = fakeProject("echo 'flights-3m: error: could not download (offline?)' >&2\nexit 1");
    withPaths(root, dir.resolve("cache"), () -> {
      DataException e = assertThrows(DataException.class, Flights::load);
      assertTrue(e.getMessage().contains("could not download (offline?)"), e.getMessage());
      assertTrue(e.getMessage().contains("exit 1"), e.getMessage());
    });
    withPaths(dir.resolve("no-project"), dir.resolve("cache2"), () -> {
      DataException e = assertThrows(DataException.class, Flights::load);
      assertTrue(e.getMessage().contains("was not found"), e.getMessage());
    });
  }

  @Test
  void theRealThreeMillionRowsWhenCached() throws IOException {
    Assumptions.assumeTrue(
        Flights.isCached(),
        "flights-3m not cached in " + Flights.cacheDir()
            + " (datasets/build/flights.sh fetches it)");
    RegressionSet s = Flights.load();
    RegressionData d = s.data();
    assertEquals(3_000_000, d.n());
    assertEquals(9, d.d());
    assertTrue(s.provenance().detail().contains("0 dropped"), s.provenance().toString());
    // the source's first row: 01010001, delay -13, distance 2345, ANC -> LAX
    Map<String, double[]> ap =
        Flights.readAirports(Flights.cacheDir().resolve(Flights.AIRPORTS_FILE));
    double[] anc = ap.get("ANC");
    double[] lax = ap.get("LAX");
    assertArrayEquals(new double[] {1, 1, 1, 1, 2345, anc[0], anc[1], lax[0], lax[1]}, d.row(0));
    assertEquals(-13.0, d.y()[0]);
    double sum = 0;
    for (int i = 0; i < d.n(); i++) {
      sum += d.y()[i];
      assertTrue(d.x(i, 0) >= 1 && d.x(i, 0) <= 6, "January..June 2001");
      assertTrue(d.x(i, 2) >= 1 && d.x(i, 2) <= 7);
      assertTrue(d.x(i, 3) >= 0 && d.x(i, 3) < 1440);
    }
    // total arrival delay of the 3M rows, summed from the parquet file itself with hyparquet's row
    // reader
    // (not through the converter): 19,989,217 minutes
    assertEquals(19_989_217.0, sum);
    assertEquals(1000, Flights.load(1000).size());
  }
}
