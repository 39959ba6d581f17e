package org.approxgp.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link LogisticRegression} against scikit-learn's {@code LogisticRegression} on the table
 * {@code baseline/logistic-sklearn.csv} (made by {@code library/cli/src/test/python/make_logistic_table.py}: 300 seeded
 * rows, d = 3, penalties λ = 0, 0.01, 1, 30), and its optimality conditions checked directly.
 */
class LogisticRegressionTest {

  private record Table(double[][] x, double[] y, List<double[]> fits) {}

  private static Table table() throws IOException {
    String text;
    try (InputStream in =
        LogisticRegressionTest.class.getResourceAsStream("/baseline/logistic-sklearn.csv")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<double[]> fits = new ArrayList<>();
    List<double[]> rows = new ArrayList<>();
    boolean header = false;
    for (String line : text.split("\n")) {
      if (line.startsWith("# fit ")) {
        String[] f = line.substring("# fit ".length()).split(",");
        double[] v = new double[f.length];
        for (int i = 0; i < f.length; i++) {
          v[i] = Double.parseDouble(f[i]);
        }
        fits.add(v);
      } else if (line.startsWith("#") || line.isBlank()) {
        continue;
      } else if (!header) {
        header = true; // x1,x2,x3,y
      } else {
        String[] f = line.split(",");
        double[] v = new double[f.length];
        for (int i = 0; i < f.length; i++) {
          v[i] = Double.parseDouble(f[i]);
        }
        rows.add(v);
      }
    }
    double[][] x = new double[rows.size()][];
    double[] y = new double[rows.size()];
    for (int i = 0; i < x.length; i++) {
      double[] r = rows.get(i);
      x[i] = java.util.Arrays.copyOf(r, r.length - 1);
      y[i] = r[r.length - 1];
    }
    return new Table(x, y, fits);
  }

  @Test
  void matchesScikitLearn() throws IOException {
    Table t = table();
    assertEquals(300, t.x().length);
    assertEquals(4, t.fits().size());
    for (double[] f : t.fits()) {
      double lambda = f[0];
      LogisticRegression lr = LogisticRegression.fit(t.x(), t.y(), lambda);
      assertTrue(lr.converged(), "lambda " + lambda);
      assertEquals(
          f[1], lr.intercept(), 1e-9 * (1 + Math.abs(f[1])), "intercept, lambda " + lambda);
      double[] w = lr.weights();
      for (int k = 0; k < w.length; k++) {
        assertEquals(
            f[2 + k], w[k], 1e-9 * (1 + Math.abs(f[2 + k])), "w" + k + ", lambda " + lambda);
      }
      double loss = 0;
      for (int i = 0; i < t.x().length; i++) {
        loss -= lr.logProbability(t.x()[i], t.y()[i]);
      }
      assertEquals(f[5], loss / t.x().length, 1e-10, "mean log loss, lambda " + lambda);
    }
  }

  /** At the fit the gradient of J vanishes: Σ (pᵢ − tᵢ) x̃ᵢ + λ w̃ = 0, to rounding. */
  @Test
  void gradientVanishesAtTheFit() throws IOException {
    Table t = table();
    for (double lambda : new double[] {0.0, 0.5, 7.0}) {
      LogisticRegression lr = LogisticRegression.fit(t.x(), t.y(), lambda);
      double[] w = lr.weights();
      double[] g = new double[w.length + 1];
      for (int i = 0; i < t.x().length; i++) {
        double r = lr.probability(t.x()[i]) - (t.y()[i] > 0 ? 1 : 0);
        for (int k = 0; k < w.length; k++) {
          g[k] += r * t.x()[i][k];
        }
        g[w.length] += r;
      }
      for (int k = 0; k < w.length; k++) {
        g[k] += lambda * w[k];
      }
      for (double gk : g) {
        assertEquals(0.0, gk, 1e-9, "lambda " + lambda);
      }
    }
  }

  @Test
  void refusesBadInput() {
    double[][] x = {{0.0}, {1.0}};
    assertThrows(
        IllegalArgumentException.class, () -> LogisticRegression.fit(x, new double[] {1, 0}, 1));
    assertThrows(
        IllegalArgumentException.class, () -> LogisticRegression.fit(x, new double[] {1, -1}, -1));
    // separable data without a penalty: no maximum-likelihood estimate
    assertThrows(
        ArithmeticException.class, () -> LogisticRegression.fit(x, new double[] {-1, 1}, 0));
  }
}
