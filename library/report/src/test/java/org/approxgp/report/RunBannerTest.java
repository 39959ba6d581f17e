package org.approxgp.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.ResultRow;
import org.approxgp.report.display.MimeBundles;
import org.junit.jupiter.api.Test;

/** {@link RunBanner}: mode, trial count, the scale from the keys' distinct values, the date; HTML that survives sanitising. */
class RunBannerTest {

  record Cfg(int seeds) {}

  record Key(String dataset, String method, long seed, int fold) {}

  private static Experiment<Cfg, Key> experiment(String name, int datasets, int seeds) {
    List<Key> keys = new ArrayList<>();
    for (int d = 0; d < datasets; d++) {
      for (String m : List.of("ep", "qp")) {
        for (long s = 0; s < seeds; s++) {
          for (int f = 0; f < 3; f++) {
            keys.add(new Key("d" + d, m, s, f));
          }
        }
      }
    }
    return new Experiment<>(
        name, new Cfg(seeds), Key.class, keys, (c, k) -> ResultRow.builder().build());
  }

  @Test
  void saysModeTrialsScaleAndDate() {
    RunBanner b = RunBanner.of(
        ProjectPaths.Mode.QUICK,
        LocalDate.of(2026, 11, 26),
        experiment("qp-table1", 5, 2),
        experiment("qp-mining", 1, 4));
    assertEquals(5 * 2 * 2 * 3 + 2 * 4 * 3, b.trials());
    assertEquals(
        "Run mode: quick · 84 trials · qp-table1: 60 trials (5 dataset × 2 method × 2 seed × 3 fold)"
            + " · qp-mining: 24 trials (2 method × 4 seed × 3 fold) · 2026-11-26",
        b.text());
  }

  @Test
  void htmlUsesOnlyTagsTheSanitiserKeeps() {
    RunBanner b =
        RunBanner.of(ProjectPaths.Mode.FULL, LocalDate.of(2026, 1, 2), experiment("tour", 1, 1));
    String html = b.html();
    assertTrue(html.startsWith("<table class=\"approxgp\"><tr><td><b>Run mode: full</b>"), html);
    assertTrue(
        html.endsWith("tour: 6 trials (2 method × 3 fold) · 2026-01-02</td></tr></table>"), html);
    assertEquals(
        "Run mode: smoke · 2026-01-02",
        RunBanner.of(ProjectPaths.Mode.SMOKE, LocalDate.of(2026, 1, 2)).text());
    Map<String, String> m = MimeBundles.of(b).orElseThrow();
    assertEquals(html, m.get(MimeBundles.HTML));
    assertEquals(b.text(), m.get(MimeBundles.TEXT));
  }

  private static Map<String, Object> key(Object... kv) {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  void aTrialListThatIsNotAGridCountsItsCombinationsSoTheNumbersMultiplyToTheTrials() {
    // figure 1 runs on two data sets, figure 2 on three; every (figure, dataset) pair with 2
    // methods × 4 seeds
    List<Map<String, Object>> keys = new ArrayList<>();
    String[][] datasets = {{"a", "b"}, {"a", "c", "d"}};
    for (int f = 0; f < 2; f++) {
      for (String d : datasets[f]) {
        for (String m : List.of("ep", "qp")) {
          for (int s = 0; s < 4; s++) {
            keys.add(key("figure", f, "dataset", d, "method", m, "seed", s, "fold", 0));
          }
        }
      }
    }
    assertEquals(40, keys.size());
    assertEquals(" (2 method × 4 seed × 5 combinations of figure, dataset)", RunBanner.scale(keys));
  }

  @Test
  void aGridIsItsDistinctValuesAndNothingFactorsOutOfAnIrregularList() {
    assertEquals(
        " (2 method × 3 fold)",
        RunBanner.scale(List.of(
            key("method", "ep", "fold", 0),
            key("method", "ep", "fold", 1),
            key("method", "ep", "fold", 2),
            key("method", "qp", "fold", 0),
            key("method", "qp", "fold", 1),
            key("method", "qp", "fold", 2))));
    assertEquals(
        " (3 combinations of method, fold)",
        RunBanner.scale(List.of(
            key("method", "ep", "fold", 0),
            key("method", "ep", "fold", 1),
            key("method", "qp", "fold", 0))));
    assertEquals("", RunBanner.scale(List.of(key("method", "ep"))));
  }
}
