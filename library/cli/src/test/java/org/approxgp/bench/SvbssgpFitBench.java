package org.approxgp.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.approxgp.data.Dataset;
import org.approxgp.data.Datasets;
import org.approxgp.data.RegressionData;
import org.approxgp.data.RegressionDatasets;
import org.approxgp.data.RegressionSet;
import org.approxgp.data.RegressionSplits;
import org.approxgp.data.Split;
import org.approxgp.data.Splits;
import org.approxgp.data.TargetKind;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.sparse.KMeans;
import org.approxgp.sparse.Ssgp;
import org.approxgp.sparse.Svbssgp;
import org.approxgp.sparse.SvbssgpOptions;

/**
 * Benchmark (not a unit test): how well sVBSSGP fits at its default settings on three real data sets, against
 * SSGP here and (outside Java) scikit-learn's exact GP and random-Fourier-feature ridge on the same split, which
 * this program writes as CSV files (standardised inputs and target) for {@code svbssgp_reference.py}.
 *
 * <ul>
 *   <li>diamonds: 3,000 seeded rows of ggplot2's diamonds (26 inputs), log price, 2,000 train / 1,000 test;
 *   <li>wine: UCI wine (178 rows), target alcohol from the other 12 measurements and the class, 2/3 train;
 *   <li>pima: the 768 Pima Indians rows, target body-mass index from the other 7 inputs and the label, 2/3 train;
 *   <li>glass: the 214 glass fragments, target refractive index from the 8 oxides and the type, 2/3 train.
 * </ul>
 *
 * <p>Prints the bound trace every 10 iterations, whether it rose, the stop reason, the learned hyperparameters,
 * and the RMSE and MNLP (target units) of sVBSSGP (γ = 0 and γ = 1) and SSGP, with the mean squared standardised
 * test residual (1 for calibrated predictive variances).
 *
 * <p>Run: {@code java -cp ... org.approxgp.bench.SvbssgpFitBench [OUTDIR] [DATASET,...] [ITERATIONS]}.
 */
public final class SvbssgpFitBench {
  private SvbssgpFitBench() {}

  /** A named split, standardised on its training part. */
  record Problem(String name, RegressionSplits.Standardized data, int partitions) {}

  static Problem problem(String name) {
    switch (name) {
      case "diamonds" -> {
        RegressionSet d =
            RegressionDatasets.sample(RegressionDatasets.diamonds(true), 3000, 7, "diamonds-3000");
        return split(name, d.data(), 1.0 / 3, 20);
      }
      case "wine" -> {
        return split(
            name, moveTarget(Datasets.load("wine", "class", TargetKind.REAL), 0), 1.0 / 3, 6);
      }
      case "pima" -> {
        return split(
            name,
            moveTarget(Datasets.load("pima-indians-diabetes", "diabetes", TargetKind.REAL), 5),
            1.0 / 3,
            25);
      }
      case "glass" -> {
        return split(
            name, moveTarget(Datasets.load("glass", "Type", TargetKind.REAL), 0), 1.0 / 3, 7);
      }
      default -> throw new IllegalArgumentException(name);
    }
  }

  /** Column {@code col} of the features becomes the target; the old target becomes a feature. */
  static RegressionData moveTarget(Dataset ds, int col) {
    double[][] f = ds.features();
    double[] y = ds.target();
    int n = f.length;
    int d = f[0].length;
    double[][] x = new double[n][d];
    double[] t = new double[n];
    for (int i = 0; i < n; i++) {
      int k = 0;
      for (int j = 0; j < d; j++) {
        if (j != col) {
          x[i][k++] = f[i][j];
        }
      }
      x[i][k] = y[i];
      t[i] = f[i][col];
    }
    return RegressionData.of(x, t);
  }

  static Problem split(String name, RegressionData data, double testFraction, int p) {
    Split s = Splits.random(data.n(), testFraction, 11);
    return new Problem(name, RegressionSplits.standardize(data, s, true), p);
  }

  /** RMSE and MNLP in target units. */
  static double[] metrics(RegressionSplits.Standardized data, PredictiveMoments p) {
    double[] y = data.test().y();
    double se = 0;
    double nlp = 0;
    double z2 = 0;
    for (int j = 0; j < y.length; j++) {
      double e = data.mean(y[j]) - data.mean(p.mean()[j]);
      double v = data.variance(p.variance()[j]);
      se += e * e;
      nlp += 0.5 * (Math.log(2 * Math.PI * v) + e * e / v);
      z2 += e * e / v;
    }
    return new double[] {Math.sqrt(se / y.length), nlp / y.length, z2 / y.length};
  }

  static void writeCsv(Path file, RegressionData d) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < d.n(); i++) {
      for (int j = 0; j < d.d(); j++) {
        sb.append(d.x(i, j)).append(',');
      }
      sb.append(d.y()[i]).append('\n');
    }
    Files.writeString(file, sb.toString());
  }

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "/tmp/svbssgp-bench");
    String[] names = (args.length > 1 ? args[1] : "diamonds,wine,pima").split(",");
    Integer iterations = args.length > 2 ? Integer.valueOf(args[2]) : null;
    Files.createDirectories(out);
    for (String name : names) {
      Problem pr = problem(name);
      RegressionSplits.Standardized data = pr.data();
      writeCsv(out.resolve(name + "-train.csv"), data.train());
      writeCsv(out.resolve(name + "-test.csv"), data.test());
      try (var w = Files.newBufferedWriter(out.resolve(name + "-scale.txt"))) {
        w.write(data.yMean() + "," + data.yScale() + "\n");
      }
      KMeans km = KMeans.fit(data.train(), pr.partitions(), 1, 50);
      int[] tr = km.assign(data.train());
      int[] te = km.assign(data.test());
      SvbssgpOptions o = SvbssgpOptions.defaults().withM(20).withSeed(1);
      if (iterations != null) {
        o = o.withIterations(iterations);
      }
      List<Double> trace = new ArrayList<>();
      long t0 = System.nanoTime();
      Svbssgp fit = Svbssgp.fit(data.train(), tr, o, (it, l, s) -> trace.add(l));
      double sec = (System.nanoTime() - t0) * 1e-9;
      System.out.printf(
          Locale.ROOT,
          "%s: n=%d d=%d p=%d, %d iterations, %.1f s%n",
          name,
          data.train().n(),
          data.train().d(),
          pr.partitions(),
          trace.size(),
          sec);
      StringBuilder tl = new StringBuilder("  bound:");
      for (int i = 0; i < trace.size(); i += Math.max(1, trace.size() / 12)) {
        tl.append(String.format(Locale.ROOT, " t%d=%.0f", i + 1, trace.get(i)));
      }
      tl.append(String.format(Locale.ROOT, " t%d=%.0f", trace.size(), trace.get(trace.size() - 1)));
      System.out.println(tl);
      System.out.println("  " + fit + " converged=" + fit.converged() + " stop=" + fit.stopReason()
          + " diverging=" + fit.diverging());
      System.out.println("  ell "
          + java.util.Arrays.toString(java.util.Arrays.stream(fit.priorLengthscales())
              .map(v -> Math.round(v * 1000) / 1000.0)
              .toArray()));
      for (double gamma : new double[] {0, 1}) {
        double[] mt = metrics(
            data,
            fit.predict(
                data.test(), te, gamma, o.predictiveSamples(), o.schedule().seed()));
        System.out.printf(
            Locale.ROOT,
            "  svbssgp gamma=%.0f  RMSE %.4f  MNLP %.4f  mean z^2 %.2f%n",
            gamma,
            mt[0],
            mt[1],
            mt[2]);
      }
      Ssgp ssgp = Ssgp.fit(data.train(), Ssgp.Options.of(20, 1000, 1), null);
      double[] ms = metrics(data, ssgp.predict(data.test()));
      System.out.printf(
          Locale.ROOT,
          "  ssgp (m=20, L-BFGS)  RMSE %.4f  MNLP %.4f  (%d iterations)%n",
          ms[0],
          ms[1],
          ssgp.iterations());
    }
  }
}
