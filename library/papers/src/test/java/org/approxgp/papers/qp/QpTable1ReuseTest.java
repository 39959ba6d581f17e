package org.approxgp.papers.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.approxgp.experiment.ResultRow;
import org.junit.jupiter.api.Test;

/**
 * QP's Table 1 trial reusing EP's optimum of the same fold gives the rows the refitting path gave, to
 * the bit (timing columns aside), whether EP's trial ran first or not; no optimum is left behind.
 * Smallest slice: wine2 (107 rows), seed 0, folds 0–1, se-iso, QP at EP's optimum (smoke mode).
 */
class QpTable1ReuseTest {

  private static final QpTable1.Config CONFIG =
      new QpTable1.Config(List.of("wine2"), List.of("ep", "qp"), "se-iso", 1, 2, false);

  /** Every column but the wall-clock ones, doubles as their bits. */
  private static List<String> comparable(ResultRow r) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Object> e : r.values().entrySet()) {
      if (!e.getKey().startsWith("seconds")) {
        Object v =
            e.getValue() instanceof Double d ? "bits " + Double.doubleToLongBits(d) : e.getValue();
        out.add(e.getKey() + "=" + v);
      }
    }
    return out;
  }

  private static QpTable1.Key key(String method, int fold) {
    return new QpTable1.Key("wine2", method, 0, fold);
  }

  @Test
  void qpRowsEqualTheRefittingPath() {
    // the path before the reuse: each QP trial fits EP itself
    List<String> epOld = comparable(QpTable1.trial(CONFIG, key("ep", 0), false));
    List<String> qpOld0 = comparable(QpTable1.trial(CONFIG, key("qp", 0), false));
    List<String> qpOld1 = comparable(QpTable1.trial(CONFIG, key("qp", 1), false));
    assertEquals(0, QpTable1.pendingEpOptima());

    // fold 0: EP's trial first, then QP reads its optimum
    assertEquals(epOld, comparable(QpTable1.trial(CONFIG, key("ep", 0), true)));
    assertEquals(1, QpTable1.pendingEpOptima(), "EP's optimum waits for QP's trial");
    assertEquals(qpOld0, comparable(QpTable1.trial(CONFIG, key("qp", 0), true)));
    assertEquals(0, QpTable1.pendingEpOptima(), "QP's trial collected it");

    // fold 1: QP's trial without EP's (e.g. a resumed run): it fits EP itself
    assertEquals(qpOld1, comparable(QpTable1.trial(CONFIG, key("qp", 1), true)));
    assertEquals(0, QpTable1.pendingEpOptima());
  }

  /**
   * The config's data sets, methods, seeds and folds only select trials ({@code @Selects}): a trial's row is the
   * same under a config that selects others, so such configs share one results store.
   */
  @Test
  void selectingOtherTrialsChangesNoRowAndKeepsTheStore() {
    QpTable1.Config other =
        new QpTable1.Config(List.of("crabs", "wine2"), List.of("ep"), "se-iso", 3, 5, false);
    assertEquals(
        comparable(QpTable1.trial(CONFIG, key("ep", 1), false)),
        comparable(QpTable1.trial(other, key("ep", 1), true)));
    assertEquals(0, QpTable1.pendingEpOptima(), "a config without QP leaves no optimum behind");
    assertEquals(
        org.approxgp.experiment.ConfigHash.storeHash(CONFIG),
        org.approxgp.experiment.ConfigHash.storeHash(other));
    QpTable1.Config ard =
        new QpTable1.Config(List.of("wine2"), List.of("ep", "qp"), "se-ard", 1, 2, false);
    org.junit.jupiter.api.Assertions.assertNotEquals(
        org.approxgp.experiment.ConfigHash.storeHash(CONFIG),
        org.approxgp.experiment.ConfigHash.storeHash(ard),
        "the kernel changes results: another store");
  }

  @Test
  void anOptimumOfTheOtherProtocolIsNeverReused() {
    // the authors' NumPy folds hold other rows under the same data set, seed and fold number
    QpTable1.Config authors = CONFIG.withProtocol(QpTable1.Protocol.authors());
    List<String> qpAuthorsRefit = comparable(QpTable1.trial(authors, key("qp", 0), false));
    // a clean run whose QP row was already stored leaves EP's optimum behind ...
    QpTable1.trial(CONFIG, key("ep", 0), true);
    assertEquals(1, QpTable1.pendingEpOptima());
    // ... which the authors' QP trial of the same fold number must not take
    assertEquals(qpAuthorsRefit, comparable(QpTable1.trial(authors, key("qp", 0), true)));
    assertEquals(
        1, QpTable1.pendingEpOptima(), "the clean optimum is still waiting for its own QP trial");
    QpTable1.trial(CONFIG, key("qp", 0), true);
    assertEquals(0, QpTable1.pendingEpOptima());
  }

  @Test
  void configurationWithoutQpLeavesNothingBehind() {
    QpTable1.Config epOnly =
        new QpTable1.Config(List.of("wine2"), List.of("ep"), "se-iso", 1, 1, false);
    QpTable1.trial(epOnly, key("ep", 0), true);
    assertEquals(0, QpTable1.pendingEpOptima());
  }

  @Test
  void eachRowNamesHowItsHyperparametersWereFitted() {
    QpTable1.Config optimised =
        new QpTable1.Config(List.of("wine2"), List.of("ep", "qp", "vb"), "se-iso", 1, 1, true);
    assertEquals("analytic", QpTable1.gradientName("ep", optimised));
    assertEquals("analytic", QpTable1.gradientName("vb", optimised));
    assertEquals("none", QpTable1.gradientName("qp", CONFIG));
    assertEquals("numerical", QpTable1.gradientName("rep", optimised));
    String previous = System.getProperty(QpTable1.QP_GRADIENT_PROPERTY);
    try {
      System.clearProperty(QpTable1.QP_GRADIENT_PROPERTY);
      assertEquals("implicit", QpTable1.gradientName("qp", optimised));
      System.setProperty(QpTable1.QP_GRADIENT_PROPERTY, "numerical");
      assertEquals("numerical", QpTable1.gradientName("qp", optimised));
    } finally {
      if (previous == null) {
        System.clearProperty(QpTable1.QP_GRADIENT_PROPERTY);
      } else {
        System.setProperty(QpTable1.QP_GRADIENT_PROPERTY, previous);
      }
    }
    assertEquals("none", QpTable1.trial(CONFIG, key("qp", 0), false).values().get("gradient"));
  }
}
