package org.approxgp.papers.qp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.approxgp.data.Datasets;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.inference.VbOptions;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.NegativeBinomialPredictive;
import org.approxgp.likelihood.PoissonSquareLink;
import org.approxgp.model.InferenceMethod;
import org.junit.jupiter.api.Test;

/** The Mining row under the QP authors' protocol ({@link QpMining.Protocol#authors()}). */
class QpMiningAuthorsTest {

  /** The training flags NumPy prints for the authors' year split (numpy/numpy_legacy.txt, "mining" lines). */
  static boolean[] numpyTrainFlags(long seed) throws IOException {
    try (InputStream in =
        QpMiningAuthorsTest.class.getResourceAsStream("/numpy/numpy_legacy.txt")) {
      assertTrue(in != null, "numpy/numpy_legacy.txt missing");
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String l = r.readLine(); l != null; l = r.readLine()) {
        String[] f = l.split(" ");
        if (f[0].equals("mining") && Long.parseLong(f[1]) == seed) {
          boolean[] b = new boolean[f.length - 2];
          for (int i = 0; i < b.length; i++) {
            b[i] = f[i + 2].equals("1");
          }
          return b;
        }
      }
    }
    throw new AssertionError("no mining line for seed " + seed);
  }

  @Test
  void authorsSplitAssignsWholeYearsAsNumpyDoes() throws IOException {
    double[] counts = Datasets.coalYearlyCountsAuthors().target();
    for (long seed : new long[] {0, 1, 199}) {
      boolean[] train = numpyTrainFlags(seed);
      QpMining.CoalSplit s = QpMining.split(seed, QpMining.Protocol.authors());
      List<Double> xtr = new ArrayList<>();
      List<Double> ytr = new ArrayList<>();
      List<Double> xte = new ArrayList<>();
      List<Double> yte = new ArrayList<>();
      for (int i = 0; i < 112; i++) {
        (train[i] ? xtr : xte).add((double) i);
        (train[i] ? ytr : yte).add(counts[i]);
      }
      assertEquals(xtr, Arrays.stream(s.xTrain()).map(r -> r[0]).toList(), "seed " + seed);
      assertEquals(xte, Arrays.stream(s.xTest()).map(r -> r[0]).toList(), "seed " + seed);
      assertEquals(ytr, Arrays.stream(s.trainCounts()).boxed().toList());
      assertEquals(yte, Arrays.stream(s.testCounts()).boxed().toList());
      assertEquals(191, s.trainEvents() + s.testEvents());
    }
  }

  @Test
  void eventSplitOnTheAuthorsCountsMovesOnlyTheEventOf1942() {
    // with the event split, only the data switch differs: same Bernoulli draws, one event binned a
    // year earlier
    QpMining.CoalSplit clean = QpMining.split(3, QpMining.Protocol.clean());
    QpMining.CoalSplit counts =
        QpMining.split(3, QpMining.Protocol.clean().withAuthorsCounts(true));
    assertEquals(clean.trainEvents(), counts.trainEvents());
    double[] d = new double[112];
    for (int i = 0; i < 112; i++) {
      d[i] = counts.trainCounts()[i]
          + counts.testCounts()[i]
          - clean.trainCounts()[i]
          - clean.testCounts()[i];
    }
    double[] expected = new double[112];
    expected[1941 - 1851] = 1;
    expected[1942 - 1851] = -1;
    assertArrayEquals(expected, d);
  }

  /**
   * Seed 0 of the authors' protocol, EP: −log Z = 92.3562 is the authors' own figure (GPy EP);
   * the optimum (ℓ, σ_f²) is ours, pinned so it cannot drift.
   */
  @Test
  void seedZeroEpReproducesTheAuthorsLogEvidence() {
    QpMining.SeedResult r = QpMining.fit(0, List.of("ep"), QpMining.Protocol.authors());
    QpMining.MethodResult ep = r.methods().get(0);
    assertEquals(109, r.trainEvents());
    assertEquals(82, r.testEvents());
    assertEquals(92.3562, ep.negLogEvidence(), 5e-5, ep.toString());
    assertEquals(18.238, ep.lengthscale(), 2e-3, ep.toString());
    assertEquals(0.25900, ep.signalVariance(), 2e-5, ep.toString());
    assertEquals(1.0, ep.te(), 1e-12, ep.toString());
    assertEquals(1.55181, ep.ntllExact(), 1e-5, ep.toString());
  }

  /**
   * VB as the authors ran it (no mean function, GPy's start α = 0): with the square link the posterior
   * mean stays exactly 0, so the NB mode is 0 in every year (k = ½) and TE is the mean test count.
   */
  @Test
  void authorsVbKeepsTheZeroMeanAndPredictsNoDisasters() {
    QpMining.CoalSplit d = QpMining.split(0, QpMining.Protocol.authors());
    Problem p = new Problem(
        SquaredExponential.iso(1.0, 1.0),
        d.xTrain(),
        d.trainCounts(),
        PoissonSquareLink.get(),
        0.0);
    Posterior post =
        CoalStarts.gpyVbStart(InferenceMethod.vb(VbOptions.defaults())).infer(p, null);
    for (double m : post.mean()) {
      assertEquals(0.0, m, 0.0);
    }
    Prediction pr = post.predict(d.xTest());
    for (int j = 0; j < pr.size(); j++) {
      assertEquals(0.0, pr.latentMean()[j], 0.0);
      assertEquals(
          0.0, NegativeBinomialPredictive.of(0.0, pr.latentVariance()[j]).mode());
    }
    // with the prior mean 1 and the likelihood-mode start VB leaves 0
    Posterior withMean = CoalStarts.likelihoodModeStart(InferenceMethod.vb(VbOptions.defaults()))
        .infer(new Problem(p.kernel(), p.x(), p.y(), p.likelihood(), 1.0), null);
    assertNotEquals(0.0, withMean.mean()[0]);
  }

  /** The store's columns {@link QpMiningTables#summary} reads, one row per seed. */
  private static tech.tablesaw.api.Table rows(List<QpMining.SeedResult> seeds) {
    var r = seeds.stream().map(x -> x.methods().get(0)).toList();
    return tech.tablesaw.api.Table.create(
        "rows",
        tech.tablesaw.api.DoubleColumn.create(
            "te_ep", r.stream().mapToDouble(QpMining.MethodResult::te).toArray()),
        tech.tablesaw.api.DoubleColumn.create(
            "ntll_ep", r.stream().mapToDouble(QpMining.MethodResult::ntll).toArray()),
        tech.tablesaw.api.DoubleColumn.create(
            "ntll_exact_ep",
            r.stream().mapToDouble(QpMining.MethodResult::ntllExact).toArray()));
  }

  private static QpMining.SeedResult seed(long s, double te, double ntllNb, double ntllExact) {
    return new QpMining.SeedResult(
        s,
        100,
        91,
        List.of(new QpMining.MethodResult(
            "ep", te, ntllNb, ntllExact, 10, 0.3, 90, true, 0, 1, 0.1, "")),
        0,
        0);
  }

  @Test
  void eachProtocolSummarisesWithItsOwnNtllAndSwitchEffectsAreDifferencesOfMeans() {
    List<QpMining.SeedResult> authors = List.of(seed(0, 1.0, 9.0, 1.5), seed(1, 2.0, 9.0, 1.7));
    List<QpMining.SeedResult> clean = List.of(seed(0, 0.5, 1.1, 7.0), seed(1, 0.7, 1.3, 7.0));
    var a = QpMiningTables.summary(rows(authors), List.of("ep"), QpMining.Protocol.authors());
    var c = QpMiningTables.summary(rows(clean), List.of("ep"), QpMining.Protocol.clean());
    assertEquals(150, a.doubleColumn("TE ×1e-2").getDouble(0), 1e-12);
    assertEquals(60, c.doubleColumn("TE ×1e-2").getDouble(0), 1e-12);
    assertEquals(1600, a.doubleColumn("NTLL ×1e-3").getDouble(0), 1e-12); // exact predictive
    assertEquals(1200, c.doubleColumn("NTLL ×1e-3").getDouble(0), 1e-12); // NB
    assertEquals(50, a.doubleColumn("TE sd").getDouble(0), 1e-12); // np.std
    assertEquals(118.6, a.doubleColumn("paper TE").getDouble(0), 1e-12);
    var e = QpMiningTables.switchEffects(
        QpMining.Protocol.authors(),
        authors,
        java.util.Map.of("exactNtll", authors),
        List.of("ep"));
    assertEquals(0.0, e.doubleColumn("Δ TE").getDouble(0), 0.0);
    assertEquals(9.0 - 1.6, e.doubleColumn("Δ NTLL").getDouble(0), 1e-12);
    assertThrows(
        IllegalArgumentException.class,
        () -> QpMiningTables.switchEffects(
            QpMining.Protocol.authors(),
            authors,
            java.util.Map.of("noSuchSwitch", authors),
            List.of("ep")));
  }

  @Test
  void protocolSwitchesNameCustomAndRoundTrip() {
    QpMining.Protocol a = QpMining.Protocol.authors();
    assertEquals("custom", a.withGpyStart(false).name());
    assertEquals(a, a.withGpyStart(false).withGpyStart(true));
    assertEquals(
        QpMining.Protocol.clean(),
        a.withYearSplit(false)
            .withAuthorsCounts(false)
            .withGpyStart(false)
            .withVbMeanFunction(true)
            .withExactNtll(false)
            .withPopulationSd(false));
    assertEquals(a, QpMining.Protocol.of("authors"));
    assertThrows(IllegalArgumentException.class, () -> QpMining.Protocol.of("gpy"));
    // np.std divides by n, the sample sd by n − 1
    assertEquals(1.0, a.sd(new double[] {0, 2}), 1e-15);
    assertEquals(Math.sqrt(2), QpMining.Protocol.clean().sd(new double[] {0, 2}), 1e-15);
  }
}
