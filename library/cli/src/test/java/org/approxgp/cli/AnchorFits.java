package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.approxgp.anchors.GpmlIonosphere;

/**
 * {@code approxgp fit} on Ionosphere's GPML anchor split (316 training rows, 33 inputs, 35 test rows) copied into a
 * directory: the one harness of the command-line fit tests (FitCommandTest, FitSparseTest, FitSvgpTest,
 * FitScheduleTest). Each {@link #fit} runs the command in this JVM with {@code --train}, {@code --test},
 * {@code --label label}, {@code --out} and {@code --summary} in that directory, and reads back the prediction file's
 * header and rows and the summary; a failed run must write no prediction file. {@link #run} runs any command line
 * (other files, no summary) and keeps only its exit code and what it printed.
 */
final class AnchorFits {

  /**
   * One run: exit code, everything it printed, and on success of {@link #fit} the prediction file's header line,
   * its rows and the summary (null after {@link #run}).
   */
  record Run(int code, String err, String header, List<double[]> rows, JsonNode summary) {
    /** A number of the summary's top level. */
    double num(String key) {
      return summary.get(key).asDouble();
    }
  }

  private final Path dir;
  private final Path train;
  private final Path test;
  private final int n;

  private AnchorFits(Path dir, Path train, Path test, int n) {
    this.dir = dir;
    this.train = train;
    this.test = test;
    this.n = n;
  }

  /** Copies the split into {@code dir} as CSV files ({@link GpmlIonosphere#copyCsv}). */
  static AnchorFits copyTo(Path dir) throws IOException {
    GpmlIonosphere.CsvFiles f = GpmlIonosphere.copyCsv(dir);
    return new AnchorFits(
        dir, f.train(), f.test(), Files.readAllLines(f.train()).size() - 1);
  }

  /** Training rows. */
  int n() {
    return n;
  }

  /** The training file (CSV, label column {@code label}). */
  Path train() {
    return train;
  }

  /** The test file (CSV, label column {@code label}). */
  Path test() {
    return test;
  }

  /** {@code Main} in this JVM on {@code args}: the exit code and everything it printed. */
  static Run run(String... args) {
    StringWriter sw = new StringWriter();
    int code = Main.run(new PrintWriter(sw, true), args);
    return new Run(code, sw.toString(), null, null, null);
  }

  /** {@code approxgp fit} on the split with {@code extra} flags; {@code tag} names its output files. */
  Run fit(String tag, List<String> extra) throws IOException {
    Path out = dir.resolve("pred-" + tag + ".csv");
    Path sum = dir.resolve("sum-" + tag + ".json");
    List<String> args = new ArrayList<>(List.of(
        "fit",
        "--train",
        train.toString(),
        "--test",
        test.toString(),
        "--label",
        "label",
        "--out",
        out.toString(),
        "--summary",
        sum.toString()));
    args.addAll(extra);
    Run r = run(args.toArray(String[]::new));
    if (r.code() != 0) {
      assertFalse(Files.exists(out), "a failed run wrote " + out);
      return r;
    }
    List<String> lines = Files.readAllLines(out);
    List<double[]> rows = lines.stream()
        .skip(1)
        .map(l -> Arrays.stream(l.split(",")).mapToDouble(Double::parseDouble).toArray())
        .toList();
    return new Run(
        r.code(), r.err(), lines.get(0), rows, new ObjectMapper().readTree(sum.toFile()));
  }

  /** The GPML anchor's kernel flags (EP anchor 1: se-iso at GPML's hyperparameters). */
  static List<String> anchorKernel() {
    return anchorKernel(GpmlIonosphere.entries("ep").get(1));
  }

  /** The kernel flags of GPML anchor {@code e}: its kernel at GPML's hyperparameters. */
  static List<String> anchorKernel(GpmlIonosphere.Entry e) {
    List<String> a = new ArrayList<>(
        List.of("--kernel", e.kernel(), "--signal-variance", Double.toString(e.signalVariance())));
    if (e.kernel().equals("se-ard")) {
      a.add("--lengthscales");
      a.add(Arrays.stream(e.lengthscales())
          .mapToObj(Double::toString)
          .collect(Collectors.joining(",")));
    } else {
      a.add("--lengthscale");
      a.add(Double.toString(e.lengthscales()[0]));
    }
    return a;
  }

  /** {@code base} followed by {@code more}. */
  static List<String> with(List<String> base, String... more) {
    List<String> all = new ArrayList<>(base);
    all.addAll(List.of(more));
    return all;
  }
}
