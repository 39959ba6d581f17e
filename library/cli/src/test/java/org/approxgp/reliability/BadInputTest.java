package org.approxgp.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.approxgp.cli.Main;
import org.approxgp.data.DataException;
import org.approxgp.data.Dataset;
import org.approxgp.data.Datasets;
import org.approxgp.data.TargetKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input through every entry point ({@code fit}, {@code tilted}, {@code qp-table build} and
 * {@link Datasets#load} from Java). Every case runs the command line in-process through
 * {@link Main#run(PrintWriter, String...)} and checks the project standard: exit code 2, exactly one
 * line on standard error naming the file, row and column (or the option), nothing on standard
 * output, and the case's directory byte-for-byte unchanged (no output, no temporary file, inputs and
 * a pre-existing output file intact). Inputs the loader accepts by design (BOM, CRLF, quoted
 * numbers, a constant column, text labels, one test row) must give the clean file's result.
 *
 * <p>A Markdown table of all cases is written to {@code target/bad-input-table.md}.
 */
class BadInputTest {
  @TempDir
  static Path base;

  /** Rows of the Markdown table: case, entry point, exit code, message. */
  private static final List<String> TABLE = Collections.synchronizedList(new ArrayList<>());

  // ---------------------------------------------------------------- data

  /** A clean probit training file: 2 features, labels ±1 from a fixed deterministic rule. */
  static String cleanTrain() {
    StringBuilder sb = new StringBuilder("a,b,label\n");
    for (int i = 0; i < 16; i++) {
      double a = (i % 5) * 0.5 - 1;
      double b = ((i * 3) % 7) * 0.25 - 0.75;
      sb.append(a).append(',').append(b).append(',').append(a + b > 0 ? 1 : -1).append('\n');
    }
    return sb.toString();
  }

  static String cleanTest() {
    return "a,b,label\n0.1,0.2,1\n-0.9,-0.4,-1\n0.7,-0.1,1\n";
  }

  static String countsTrain() {
    StringBuilder sb = new StringBuilder("year,count\n");
    for (int i = 0; i < 12; i++) {
      sb.append(i).append(',').append((i * 7) % 4).append('\n');
    }
    return sb.toString();
  }

  static final String[] FIT_PROBIT = {
    "fit",
    "--train",
    "{train}",
    "--test",
    "{test}",
    "--label",
    "label",
    "--no-optimize",
    "--out",
    "{out}"
  };
  static final String[] FIT_COUNTS = {
    "fit",
    "--train",
    "{train}",
    "--test",
    "{test}",
    "--label",
    "count",
    "--likelihood",
    "poisson-square",
    "--no-optimize",
    "--out",
    "{out}"
  };

  /**
   * One bad-input case.
   *
   * @param name short description (the table's first column)
   * @param entry entry point (fit, tilted, qp-table)
   * @param train content of {@code train.csv} (null: the clean probit file)
   * @param test content of {@code test.csv} (null: the clean test file)
   * @param args the command line, with {train}, {test}, {out}, {dir} substituted
   * @param preexisting content of an existing {@code out.csv} (must survive unchanged), or null
   * @param mentions substrings the one error line must contain (file, row, column or option)
   * @param apiKind if non-null, {@code Datasets.load(train.csv, apiLabel, apiKind)} must throw too
   * @param apiLabel the target column for the Java API check
   */
  record Case(
      String name,
      String entry,
      String train,
      String test,
      String[] args,
      String preexisting,
      List<String> mentions,
      TargetKind apiKind,
      String apiLabel) {
    @Override
    public String toString() {
      return entry + ": " + name;
    }
  }

  static Case fitTrain(String name, String train, String... mentions) {
    return new Case(
        name, "fit", train, null, FIT_PROBIT, null, List.of(mentions), TargetKind.BINARY, "label");
  }

  static Case fitCounts(String name, String train, String... mentions) {
    return new Case(
        name,
        "fit",
        train,
        countsTrain(),
        FIT_COUNTS,
        null,
        List.of(mentions),
        TargetKind.COUNT,
        "count");
  }

  static Case fitOption(String name, String[] extra, String... mentions) {
    return new Case(
        name, "fit", null, null, concat(FIT_PROBIT, extra), null, List.of(mentions), null, null);
  }

  static Case cli(String name, String entry, String[] args, String... mentions) {
    return new Case(name, entry, null, null, args, null, List.of(mentions), null, null);
  }

  static String[] concat(String[] a, String... b) {
    String[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  static String[] without(String[] a, String option) {
    List<String> l = new ArrayList<>(List.of(a));
    int i = l.indexOf(option);
    l.remove(i + 1);
    l.remove(i);
    return l.toArray(String[]::new);
  }

  static String[] replace(String[] a, String option, String value) {
    String[] r = a.clone();
    r[List.of(a).indexOf(option) + 1] = value;
    return r;
  }

  static final String[] TILTED = {
    "tilted", "--likelihood", "probit", "--y", "1", "--cavity-mean", "0.3", "--cavity-variance", "2"
  };

  static Stream<Case> cases() {
    String t = "train.csv";
    List<Case> c = new ArrayList<>();
    // --- the training file (fit; the same files through Datasets.load)
    c.add(fitTrain("empty file", "", t, "empty file"));
    c.add(fitTrain("header only", "a,b,label\n", t, "no data rows"));
    c.add(fitTrain(
        "ragged row (missing field)",
        "a,b,label\n1,2,1\n3,-1\n4,5,-1\n",
        t,
        "row 3",
        "column 'label'",
        "ragged"));
    c.add(fitTrain(
        "ragged row (extra field)",
        "a,b,label\n1,2,1\n3,4,-1,9\n",
        t,
        "row 3",
        "field 4",
        "ragged"));
    c.add(fitTrain(
        "blank line inside the data", "a,b,label\n1,2,1\n\n4,5,-1\n", t, "row 3", "ragged"));
    c.add(fitTrain("NaN cell", "a,b,label\n1,NaN,1\n3,4,-1\n", t, "row 2", "column 'b'", "NaN"));
    c.add(fitTrain(
        "Inf cell", "a,b,label\n1,2,1\nInfinity,4,-1\n", t, "row 3", "column 'a'", "Infinity"));
    c.add(fitTrain("-Inf cell", "a,b,label\n1,-Infinity,1\n3,4,-1\n", t, "row 2", "column 'b'"));
    c.add(fitTrain(
        "overflowing number 1e999", "a,b,label\n1,1e999,1\n3,4,-1\n", t, "row 2", "column 'b'"));
    c.add(fitTrain(
        "empty cell", "a,b,label\n1,,1\n3,4,-1\n", t, "row 2", "column 'b'", "empty cell"));
    c.add(fitTrain(
        "non-numeric cell",
        "a,b,label\n1,2,1\n3,x,-1\n",
        t,
        "row 3",
        "column 'b'",
        "not a number: 'x'"));
    c.add(fitTrain("hex float", "a,b,label\n0x1p3,2,1\n3,4,-1\n", t, "row 2", "column 'a'"));
    c.add(fitTrain("Java suffix 1d", "a,b,label\n1d,2,1\n3,4,-1\n", t, "row 2", "column 'a'"));
    c.add(fitTrain(
        "quoted field with comma",
        "a,b,label\n\"1,5\",2,1\n3,4,-1\n",
        t,
        "row 2",
        "column 'a'",
        "'1,5'"));
    c.add(fitTrain(
        "unterminated quote",
        "a,b,label\n1,\"2,1\n3,4,-1\n",
        t,
        "row 2",
        "column 'b'",
        "unterminated"));
    c.add(fitTrain(
        "text after closing quote", "a,b,label\n1,\"2\"x,1\n3,4,-1\n", t, "row 2", "column 'b'"));
    c.add(fitTrain(
        "BOM then duplicate header",
        "\uFEFFa,a,label\n1,2,1\n3,4,-1\n",
        t,
        "row 1",
        "column 'a'",
        "duplicate"));
    c.add(fitTrain(
        "duplicate header",
        "a,b,b,label\n1,2,3,1\n3,4,5,-1\n",
        t,
        "row 1",
        "column 'b'",
        "duplicate"));
    c.add(fitTrain(
        "duplicate header after unquoting",
        "a,\"a\",label\n1,2,1\n3,4,-1\n",
        t,
        "column 'a'",
        "duplicate"));
    c.add(fitTrain("empty header name", "a,,label\n1,2,1\n3,4,-1\n", t, "row 1", "header field 2"));
    c.add(fitTrain(
        "missing label column", "a,b,y\n1,2,1\n3,4,-1\n", t, "row 1", "column 'label'", "unknown"));
    c.add(fitTrain("one class", "a,b,label\n1,2,1\n3,4,1\n", t, "column 'label'", "2 classes"));
    c.add(fitTrain(
        "three classes", "a,b,label\n1,2,1\n3,4,2\n5,6,3\n", t, "row 4", "column 'label'", "'3'"));
    c.add(fitTrain(
        "three string labels", "a,b,label\n1,2,yes\n3,4,no\n5,6,maybe\n", t, "row 4", "'maybe'"));
    c.add(fitTrain(
        "empty label", "a,b,label\n1,2,1\n3,4,\n", t, "row 3", "column 'label'", "empty label"));
    c.add(fitTrain("one row", "a,b,label\n1,2,1\n", t, "column 'label'", "2 classes"));
    c.add(fitCounts(
        "negative count", "year,count\n0,1\n1,-1\n2,3\n", t, "row 3", "column 'count'", "'-1'"));
    c.add(fitCounts(
        "fractional count", "year,count\n0,1\n1,2.5\n", t, "row 3", "column 'count'", "'2.5'"));
    c.add(new Case(
        "count above the likelihood's maximum",
        "fit",
        "year,count\n0,1\n1,1000000000\n",
        countsTrain(),
        FIT_COUNTS,
        null,
        List.of(t, "row 3", "column 'count'", "100000"),
        null,
        null));
    c.add(new Case(
        "no feature columns (label only)",
        "fit",
        "label\n1\n-1\n1\n",
        "label\n1\n",
        FIT_PROBIT,
        null,
        List.of(t, "row 1", "no feature columns"),
        null,
        null));
    c.add(new Case(
        "missing training file",
        "fit",
        null,
        null,
        replace(FIT_PROBIT, "--train", "{dir}/nope.csv"),
        null,
        List.of("nope.csv", "no such file"),
        null,
        null));
    // --- the test file
    c.add(new Case(
        "test file NaN",
        "fit",
        null,
        "a,b,label\n0.1,0.2,1\n0.3,nan,-1\n",
        FIT_PROBIT,
        null,
        List.of("test.csv", "row 3", "column 'b'"),
        null,
        null));
    c.add(new Case(
        "test file lacks a feature",
        "fit",
        null,
        "a,label\n0.1,1\n",
        FIT_PROBIT,
        null,
        List.of("test.csv", "column 'b'", "missing"),
        null,
        null));
    c.add(new Case(
        "test label not a training class",
        "fit",
        null,
        "a,b,label\n0.1,0.2,1\n0.3,0.1,7\n",
        FIT_PROBIT,
        null,
        List.of("test.csv", "row 3", "column 'label'", "'7'"),
        null,
        null));
    c.add(new Case(
        "test file header only",
        "fit",
        null,
        "a,b,label\n",
        FIT_PROBIT,
        null,
        List.of("test.csv", "no data rows"),
        null,
        null));
    // --- outputs
    c.add(new Case(
        "unwritable output (parent is a file)",
        "fit",
        null,
        null,
        replace(FIT_PROBIT, "--out", "{dir}/train.csv/out.csv"),
        null,
        List.of("--out", "not a directory"),
        null,
        null));
    c.add(new Case(
        "output directory missing",
        "fit",
        null,
        null,
        replace(FIT_PROBIT, "--out", "{dir}/no/such/out.csv"),
        null,
        List.of("--out", "does not exist"),
        null,
        null));
    c.add(new Case(
        "output is a directory",
        "fit",
        null,
        null,
        replace(FIT_PROBIT, "--out", "{dir}"),
        null,
        List.of("--out", "is a directory"),
        null,
        null));
    c.add(new Case(
        "output path equal to --train",
        "fit",
        null,
        null,
        replace(FIT_PROBIT, "--out", "{train}"),
        null,
        List.of("--out", "--train", "same file"),
        null,
        null));
    c.add(new Case(
        "output path equal to --test (via ./)",
        "fit",
        null,
        null,
        replace(FIT_PROBIT, "--out", "{dir}/./test.csv"),
        null,
        List.of("--out", "--test", "same file"),
        null,
        null));
    c.add(new Case(
        "--summary equal to --out",
        "fit",
        null,
        null,
        concat(FIT_PROBIT, "--summary", "{out}"),
        null,
        List.of("--summary", "--out", "same file"),
        null,
        null));
    c.add(new Case(
        "existing output survives a bad training file",
        "fit",
        "a,b,label\n1,2,1\n3,oops,-1\n",
        null,
        FIT_PROBIT,
        "latent_mean\nprevious result\n",
        List.of(t, "row 3", "column 'b'"),
        TargetKind.BINARY,
        "label"));
    c.add(new Case(
        "existing output survives a bad option",
        "fit",
        null,
        null,
        concat(FIT_PROBIT, "--kernel", "foo"),
        "previous result\n",
        List.of("--kernel", "'foo'"),
        null,
        null));
    // --- nonsense options of fit
    c.add(fitOption("--kernel foo", new String[] {"--kernel", "foo"}, "--kernel", "'foo'"));
    c.add(fitOption("--inference foo", new String[] {"--inference", "foo"}, "--inference", "foo"));
    c.add(fitOption(
        "--likelihood foo", new String[] {"--likelihood", "foo"}, "--likelihood", "'foo'"));
    c.add(fitOption(
        "--signal-variance -1", new String[] {"--signal-variance", "-1"}, "--signal-variance"));
    c.add(fitOption("--lengthscale 0", new String[] {"--lengthscale", "0"}, "--lengthscale"));
    c.add(fitOption(
        "--lengthscale nan", new String[] {"--lengthscale", "nan"}, "--lengthscale", "'nan'"));
    c.add(fitOption(
        "--prior-mean Infinity", new String[] {"--prior-mean", "Infinity"}, "--prior-mean"));
    c.add(fitOption("--seed abc", new String[] {"--seed", "abc"}, "--seed", "'abc'"));
    c.add(fitOption(
        "--lengthscales count mismatch",
        new String[] {"--kernel", "se-ard", "--lengthscales", "1,2,3"},
        "--lengthscales",
        "3 values"));
    c.add(fitOption(
        "--positive not a class", new String[] {"--positive", "7"}, "'7'", "column 'label'"));
    c.add(fitOption("unknown option", new String[] {"--frobnicate"}, "--frobnicate"));
    // --- the EP family's options
    c.add(cli(
        "--power 1.5",
        "fit",
        concat(FIT_PROBIT, "--inference", "power-ep", "--power", "1.5"),
        "--power",
        "(0, 1]"));
    c.add(cli(
        "--power 0",
        "fit",
        concat(FIT_PROBIT, "--inference", "power-ep", "--power", "0"),
        "--power"));
    c.add(
        cli("--power with ep", "fit", concat(FIT_PROBIT, "--power", "0.5"), "--power", "power-ep"));
    c.add(cli(
        "--penalty -1",
        "fit",
        concat(FIT_PROBIT, "--inference", "rep", "--penalty", "-1"),
        "--penalty"));
    c.add(cli(
        "--penalty Infinity",
        "fit",
        concat(FIT_PROBIT, "--inference", "rep", "--penalty", "Infinity"),
        "--penalty"));
    c.add(cli(
        "--penalty with power-ep",
        "fit",
        concat(FIT_PROBIT, "--inference", "power-ep", "--penalty", "3"),
        "--penalty",
        "rep"));
    c.add(cli(
        "--negative-sites foo",
        "fit",
        concat(FIT_PROBIT, "--negative-sites", "foo"),
        "--negative-sites",
        "'foo'"));
    c.add(cli(
        "--negative-sites with laplace",
        "fit",
        concat(FIT_PROBIT, "--inference", "laplace", "--negative-sites", "keep"),
        "--negative-sites",
        "laplace"));
    c.add(cli(
        "--max-sweeps 0", "fit", concat(FIT_PROBIT, "--max-sweeps", "0"), "--max-sweeps", ">= 1"));
    c.add(cli(
        "--max-sweeps with vb",
        "fit",
        concat(FIT_PROBIT, "--inference", "vb", "--max-sweeps", "5"),
        "--max-sweeps",
        "vb"));
    c.add(cli(
        "--gradient numerical with ep",
        "fit",
        concat(FIT_PROBIT, "--gradient", "numerical"),
        "--gradient",
        "'numerical'"));
    c.add(cli(
        "--gradient none while optimising",
        "fit",
        concat(
            java.util.Arrays.stream(FIT_PROBIT)
                .filter(a -> !a.equals("--no-optimize"))
                .toArray(String[]::new),
            "--gradient",
            "none"),
        "--gradient none",
        "--no-optimize"));
    c.add(cli(
        "--evidence optional with a gradient",
        "fit",
        concat(FIT_PROBIT, "--evidence", "optional"),
        "--evidence",
        "gradient none"));
    c.add(cli(
        "--evidence maybe",
        "fit",
        concat(FIT_PROBIT, "--evidence", "maybe", "--gradient", "none"),
        "--evidence",
        "'maybe'"));
    String[] fitNoisy = concat(FIT_PROBIT, "--likelihood", "noisy-step", "--epsilon", "0.2");
    c.add(fitOption(
        "noisy-step without --epsilon", new String[] {"--likelihood", "noisy-step"}, "--epsilon"));
    c.add(cli(
        "noisy-step --epsilon 0.7",
        "fit",
        replace(fitNoisy, "--epsilon", "0.7"),
        "--epsilon",
        "(0, 0.5)"));
    c.add(cli(
        "noisy-step --epsilon Infinity",
        "fit",
        replace(fitNoisy, "--epsilon", "Infinity"),
        "--epsilon"));
    c.add(fitOption(
        "--epsilon with probit", new String[] {"--epsilon", "0.1"}, "--epsilon", "noisy-step"));
    c.add(new Case(
        "noisy-step three classes",
        "fit",
        "a,b,label\n1,2,1\n3,4,2\n5,6,3\n",
        null,
        fitNoisy,
        null,
        List.of(t, "row 4", "column 'label'", "'3'"),
        null,
        null));
    c.add(new Case(
        "noisy-step one class",
        "fit",
        "a,b,label\n1,2,1\n3,4,1\n",
        null,
        fitNoisy,
        null,
        List.of(t, "column 'label'", "2 classes"),
        null,
        null));
    c.add(new Case(
        "missing required --label",
        "fit",
        null,
        null,
        without(FIT_PROBIT, "--label"),
        null,
        List.of("--label"),
        null,
        null));
    c.add(new Case(
        "--positive with counts",
        "fit",
        countsTrain(),
        countsTrain(),
        concat(FIT_COUNTS, "--positive", "1"),
        null,
        List.of("--positive"),
        null,
        null));
    // --- regress (sparse regression)
    String[] regress = {
      "regress",
      "--model",
      "ssgp",
      "--train",
      "{train}",
      "--test",
      "{test}",
      "--target",
      "label",
      "--iterations",
      "2",
      "--features",
      "4",
      "--out",
      "{out}"
    };
    c.add(cli(
        "regress --model foo", "regress", replace(regress, "--model", "foo"), "--model", "'foo'"));
    c.add(cli(
        "regress --features 3 (odd)",
        "regress",
        replace(regress, "--features", "3"),
        "--features",
        "even"));
    c.add(cli(
        "regress --iterations 0",
        "regress",
        replace(regress, "--iterations", "0"),
        "--iterations"));
    c.add(cli(
        "regress --gamma 2",
        "regress",
        concat(replace(regress, "--model", "svbssgp"), "--gamma", "2"),
        "--gamma",
        "[-1, 1]"));
    c.add(cli(
        "regress --gamma for ssgp",
        "regress",
        concat(regress, "--gamma", "0.5"),
        "--gamma",
        "applies to svbssgp only"));
    c.add(cli(
        "regress --samples 0",
        "regress",
        concat(replace(regress, "--model", "svbssgp"), "--samples", "0"),
        "--samples"));
    c.add(cli(
        "regress --partitions beyond n",
        "regress",
        concat(replace(regress, "--model", "svbssgp"), "--partitions", "100000"),
        "--partitions",
        "training rows"));
    c.add(cli(
        "regress --inducing beyond n",
        "regress",
        concat(without(replace(regress, "--model", "dtc"), "--features"), "--inducing", "100000"),
        "--inducing",
        "training rows"));
    c.add(cli(
        "regress --minibatch 0 for dtc",
        "regress",
        concat(without(replace(regress, "--model", "dtc"), "--features"), "--minibatch", "0"),
        "--minibatch"));
    c.add(cli("regress missing --target", "regress", without(regress, "--target"), "--target"));
    c.add(cli(
        "regress --target not a column", "regress", replace(regress, "--target", "nope"), "nope"));
    c.add(new Case(
        "regress target not a number",
        "regress",
        "a,b,label\n1,2,0.5\n3,4,x\n5,6,1\n",
        null,
        regress,
        null,
        List.of(t, "row 3", "column 'label'"),
        null,
        null));
    c.add(new Case(
        "regress constant target",
        "regress",
        "a,b,label\n1,2,1\n3,4,1\n5,6,1\n",
        null,
        regress,
        null,
        List.of(t, "column 'label'", "constant"),
        null,
        null));
    c.add(new Case(
        "regress: existing output survives a bad test file",
        "regress",
        null,
        "a,b,label\n0.1,oops,1\n",
        regress,
        "mean,variance\nprevious\n",
        List.of("test.csv", "row 2", "column 'b'"),
        null,
        null));
    // --- tilted
    c.add(cli(
        "--cavity-variance -1",
        "tilted",
        replace(TILTED, "--cavity-variance", "-1"),
        "--cavity-variance"));
    c.add(cli(
        "--cavity-variance 0",
        "tilted",
        replace(TILTED, "--cavity-variance", "0"),
        "--cavity-variance"));
    c.add(cli(
        "--cavity-variance nan",
        "tilted",
        replace(TILTED, "--cavity-variance", "nan"),
        "--cavity-variance",
        "'nan'"));
    c.add(cli(
        "--cavity-variance NaN",
        "tilted",
        replace(TILTED, "--cavity-variance", "NaN"),
        "--cavity-variance"));
    c.add(cli(
        "--cavity-mean Infinity",
        "tilted",
        replace(TILTED, "--cavity-mean", "Infinity"),
        "--cavity-mean"));
    c.add(cli("--y 0 for probit", "tilted", replace(TILTED, "--y", "0"), "--y", "-1 or +1"));
    c.add(cli(
        "--y 2.5 for poisson-square",
        "tilted",
        replace(replace(TILTED, "--likelihood", "poisson-square"), "--y", "2.5"),
        "--y",
        "2.5"));
    c.add(cli(
        "--likelihood foo",
        "tilted",
        replace(TILTED, "--likelihood", "foo"),
        "--likelihood",
        "'foo'"));
    c.add(cli("--p 0.5", "tilted", concat(TILTED, "--p", "0.5"), "--p"));
    c.add(cli("--p Infinity", "tilted", concat(TILTED, "--p", "Infinity"), "--p", "[1, 10]"));
    c.add(cli(
        "--p 1000 (beyond the accurate range)",
        "tilted",
        concat(TILTED, "--p", "1000"),
        "--p",
        "[1, 10]"));
    c.add(cli("missing required --y", "tilted", without(TILTED, "--y"), "--y"));
    String[] noisy = concat(replace(TILTED, "--likelihood", "noisy-step"), "--epsilon", "0.1");
    c.add(cli(
        "noisy-step without --epsilon",
        "tilted",
        replace(TILTED, "--likelihood", "noisy-step"),
        "--epsilon"));
    c.add(cli(
        "--epsilon 0.5", "tilted", replace(noisy, "--epsilon", "0.5"), "--epsilon", "(0, 0.5)"));
    c.add(cli("--epsilon 0", "tilted", replace(noisy, "--epsilon", "0"), "--epsilon", "(0, 0.5)"));
    c.add(cli("--epsilon -0.1", "tilted", replace(noisy, "--epsilon", "-0.1"), "--epsilon"));
    c.add(cli("--epsilon NaN", "tilted", replace(noisy, "--epsilon", "NaN"), "--epsilon"));
    c.add(cli("--epsilon abc", "tilted", replace(noisy, "--epsilon", "abc"), "--epsilon", "'abc'"));
    c.add(cli(
        "--epsilon with probit",
        "tilted",
        concat(TILTED, "--epsilon", "0.1"),
        "--epsilon",
        "noisy-step"));
    c.add(cli("--y 0 for noisy-step", "tilted", replace(noisy, "--y", "0"), "--y", "-1 or +1"));
    c.add(cli("--power 0", "tilted", concat(noisy, "--power", "0"), "--power", "(0, 1]"));
    c.add(cli("--power 1.5", "tilted", concat(noisy, "--power", "1.5"), "--power", "(0, 1]"));
    c.add(cli("--power -0.5", "tilted", concat(noisy, "--power", "-0.5"), "--power"));
    c.add(cli("--power NaN", "tilted", concat(noisy, "--power", "NaN"), "--power"));
    c.add(cli(
        "--power with --p",
        "tilted",
        concat(noisy, "--power", "0.5", "--p", "3"),
        "--power",
        "--p"));
    // --- coal (the QP paper's Mining experiment through the Runner)
    c.add(cli(
        "--seeds 0",
        "coal",
        new String[] {"coal", "--seeds", "0", "--results", "{dir}/r"},
        "--seeds"));
    c.add(cli(
        "--seeds -3",
        "coal",
        new String[] {"coal", "--seeds", "-3", "--results", "{dir}/r"},
        "--seeds"));
    c.add(cli(
        "--seeds two",
        "coal",
        new String[] {"coal", "--seeds", "two", "--results", "{dir}/r"},
        "--seeds"));
    c.add(cli(
        "--methods ep,foo",
        "coal",
        new String[] {"coal", "--methods", "ep,foo", "--results", "{dir}/r"},
        "--methods",
        "'foo'"));
    c.add(cli(
        "--threads 0",
        "coal",
        new String[] {"coal", "--threads", "0", "--results", "{dir}/r"},
        "--threads"));
    c.add(cli(
        "--results under a regular file",
        "coal",
        new String[] {"coal", "--seeds", "1", "--results", "/dev/null/results"},
        "--results",
        "/dev/null/results"));
    // --- qp-table build
    c.add(cli(
        "unknown likelihood",
        "qp-table",
        new String[] {"qp-table", "build", "--out", "{out}", "foo"},
        "'foo'"));
    c.add(cli("missing --out", "qp-table", new String[] {"qp-table", "build"}, "--out"));
    c.add(cli(
        "unwritable output (parent is a file)",
        "qp-table",
        new String[] {"qp-table", "build", "--out", "{dir}/train.csv/t.bin"},
        "--out",
        "not a directory"));
    c.add(cli(
        "output is a directory",
        "qp-table",
        new String[] {"qp-table", "build", "--out", "{dir}"},
        "--out",
        "is a directory"));
    c.add(cli("unknown subcommand", "qp-table", new String[] {"qp-table", "frob"}, "'frob'"));
    return c.stream();
  }

  // ---------------------------------------------------------------- running

  record Run(int code, String out, String err) {}

  /** Runs {@code approxgp args...} in-process, capturing standard error and standard output. */
  static synchronized Run run(String... args) {
    StringWriter err = new StringWriter();
    PrintStream oldOut = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      code = Main.run(new PrintWriter(err, true), args);
    } finally {
      System.setOut(oldOut);
    }
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString());
  }

  static String[] substitute(String[] args, Path dir) {
    return Arrays.stream(args)
        .map(a -> a.replace("{train}", dir.resolve("train.csv").toString())
            .replace("{test}", dir.resolve("test.csv").toString())
            .replace("{out}", dir.resolve("out.csv").toString())
            .replace("{dir}", dir.toString()))
        .toArray(String[]::new);
  }

  /** Every file under {@code dir} with its bytes (hex of the content, so maps compare by value). */
  static Map<String, String> snapshot(Path dir) throws IOException {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String key = dir.relativize(p).toString();
        m.put(
            key,
            Files.isDirectory(p)
                ? "<dir>"
                : java.util.HexFormat.of().formatHex(Files.readAllBytes(p)));
      }
    }
    return m;
  }

  static Path setUp(String name, String train, String test, String preexisting) throws IOException {
    Path dir = Files.createDirectories(base.resolve(name.replaceAll("[^A-Za-z0-9]+", "-")));
    Files.writeString(
        dir.resolve("train.csv"), train == null ? cleanTrain() : train, StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve("test.csv"), test == null ? cleanTest() : test, StandardCharsets.UTF_8);
    if (preexisting != null) {
      Files.writeString(dir.resolve("out.csv"), preexisting, StandardCharsets.UTF_8);
    }
    return dir;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badInputExitsTwoWithOneLineAndWritesNothing(Case c) throws IOException {
    Path dir = setUp(c.entry() + "-" + c.name(), c.train(), c.test(), c.preexisting());
    Map<String, String> before = snapshot(dir);
    Run r = run(substitute(c.args(), dir));
    String line = r.err().strip();
    TABLE.add("| " + c.name() + " | `" + c.entry() + "` | " + r.code() + " | `"
        + line.replace(dir.toString(), "DIR").replace("|", "\\|").replace("`", "'") + "` |");
    assertEquals(2, r.code(), r.err());
    assertEquals(1, line.lines().count(), "exactly one line on stderr: " + r.err());
    assertTrue(r.err().endsWith("\n") && !line.isEmpty(), r.err());
    assertEquals("", r.out(), "nothing on stdout");
    for (String m : c.mentions()) {
      assertTrue(line.contains(m), "names '" + m + "': " + line);
    }
    assertFalse(line.contains("Exception") || line.contains("\tat "), "no stack trace: " + line);
    assertEquals(
        before, snapshot(dir), "inputs and any existing output unchanged, nothing new written");
  }

  static Stream<Case> fileCases() {
    return cases().filter(c -> c.apiKind() != null);
  }

  /** The same bad training files through the Java API: one-line DataException naming file/row/column. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("fileCases")
  void javaApiRejectsTheSameFiles(Case c) throws IOException {
    Path dir = setUp("api-" + c.name(), c.train(), c.test(), null);
    String path = dir.resolve("train.csv").toString();
    DataException e =
        assertThrows(DataException.class, () -> Datasets.load(path, c.apiLabel(), c.apiKind()));
    String msg = e.getMessage();
    TABLE.add("| " + c.name() + " | `Datasets.load` | DataException | `"
        + msg.replace(dir.toString(), "DIR").replace("|", "\\|") + "` |");
    assertFalse(msg.contains("\n") || msg.contains("\r"), "one line: " + msg);
    assertTrue(msg.startsWith(path), "names the file first: " + msg);
    assertEquals(path, e.file());
    for (String m : c.mentions()) {
      assertTrue(msg.contains(m), "names '" + m + "': " + msg);
    }
    if (e.row() > 0) {
      assertTrue(msg.contains("row " + e.row()), msg);
    }
    if (e.column() != null) {
      assertTrue(msg.contains("column '" + e.column() + "'"), msg);
    }
  }

  // ---------------------------------------------------------------- accepted inputs

  /** Runs fit on a train file in its own directory and returns the predictions' bytes. */
  static byte[] fitPredictions(String name, byte[] trainBytes, String test, String... extra)
      throws IOException {
    Path dir = Files.createDirectories(base.resolve("ok-" + name));
    Files.write(dir.resolve("train.csv"), trainBytes);
    Files.writeString(dir.resolve("test.csv"), test, StandardCharsets.UTF_8);
    Run r = run(substitute(concat(FIT_PROBIT, extra), dir));
    TABLE.add("| " + name + " (accepted) | `fit` | " + r.code() + " | `"
        + r.err().strip().replace("|", "\\|") + "` |");
    assertEquals(0, r.code(), r.err());
    try (Stream<Path> s = Files.list(dir)) {
      assertTrue(
          s.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary left");
    }
    return Files.readAllBytes(dir.resolve("out.csv"));
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void acceptedVariantsGiveTheCleanResult() throws IOException {
    String clean = cleanTrain();
    byte[] expect = fitPredictions("clean", utf8(clean), cleanTest());
    assertTrue(
        new String(expect, StandardCharsets.UTF_8).lines().count() == 4, "header + 3 predictions");
    // UTF-8 byte-order mark: stripped, not part of the first column's name
    byte[] bom = new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    byte[] withBom = new byte[bom.length + utf8(clean).length];
    System.arraycopy(bom, 0, withBom, 0, 3);
    System.arraycopy(utf8(clean), 0, withBom, 3, utf8(clean).length);
    assertArrayEquals(expect, fitPredictions("bom", withBom, cleanTest()), "BOM");
    assertArrayEquals(
        expect, fitPredictions("bom-test", utf8(clean), "\uFEFF" + cleanTest()), "BOM in TEST");
    // CRLF and CR line ends, trailing blank lines
    assertArrayEquals(
        expect,
        fitPredictions("crlf", utf8(clean.replace("\n", "\r\n") + "\r\n\r\n"), cleanTest()),
        "CRLF");
    assertArrayEquals(
        expect, fitPredictions("cr", utf8(clean.replace("\n", "\r")), cleanTest()), "CR");
    // RFC 4180 quotes around names and numbers, spaces around fields
    String quoted = clean
        .lines()
        .map(l -> Arrays.stream(l.split(","))
            .map(f -> " \"" + f + "\" ")
            .reduce((x, y) -> x + "," + y)
            .orElseThrow())
        .reduce("", (x, y) -> x + y + "\n");
    assertArrayEquals(expect, fitPredictions("quoted", utf8(quoted), cleanTest()), "quoted fields");
    // text labels: the two classes no/yes map yes -> +1 (the larger), no -> -1
    String text = clean.replace(",-1\n", ",no\n").replace(",1\n", ",yes\n");
    assertArrayEquals(
        expect,
        fitPredictions(
            "yes-no", utf8(text), cleanTest().replace(",-1\n", ",no\n").replace(",1\n", ",yes\n")),
        "text labels");
    // a constant feature column adds nothing to SE distances (and standardises to 0, not NaN)
    String constant = clean
        .lines()
        .map(l -> l.startsWith("a,") ? "c," + l : "3.5," + l)
        .reduce("", (x, y) -> x + y + "\n");
    String constantTest = cleanTest()
        .lines()
        .map(l -> l.startsWith("a,") ? "c," + l : "3.5," + l)
        .reduce("", (x, y) -> x + y + "\n");
    assertArrayEquals(
        expect, fitPredictions("constant", utf8(constant), constantTest), "constant column");
    byte[] std = fitPredictions("clean-std", utf8(clean), cleanTest(), "--standardize");
    byte[] constStd = fitPredictions("constant-std", utf8(constant), constantTest, "--standardize");
    assertArrayEquals(std, constStd, "constant column, standardised");
    assertFalse(new String(constStd, StandardCharsets.UTF_8).contains("NaN"));
    // one test row: the first row of the clean predictions
    byte[] one = fitPredictions("one-test-row", utf8(clean), "a,b,label\n0.1,0.2,1\n");
    List<String> expectLines =
        new String(expect, StandardCharsets.UTF_8).lines().toList();
    assertEquals(
        expectLines.subList(0, 2),
        new String(one, StandardCharsets.UTF_8).lines().toList());
  }

  @Test
  void successfulRunGivesOrdinaryPermissionsOrKeepsTheReplacedFilesOwn() throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        base.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
    Path dir = setUp("perms", null, null, null);
    assertEquals(0, run(substitute(FIT_PROBIT, dir)).code());
    Path out = dir.resolve("out.csv");
    // the temporary file is created owner-only; the result must not stay rw------- (others could
    // not read it)
    assertEquals("rw-r--r--", perms(out));
    Files.writeString(out, "old\n");
    Files.setPosixFilePermissions(
        out, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw----"));
    assertEquals(0, run(substitute(FIT_PROBIT, dir)).code());
    assertTrue(Files.readString(out).startsWith("latent_mean,"), "replaced on success");
    assertEquals("rw-rw----", perms(out));
    try (Stream<Path> s = Files.list(dir)) {
      assertTrue(
          s.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary left");
    }
  }

  /** A valid question the numerics cannot answer is a failed computation: exit 1, one line, no trace. */
  @Test
  void tiltedComputationFailureIsOneLineExitOne() {
    Run r = run(replace(replace(TILTED, "--cavity-mean", "1e308"), "--cavity-variance", "1e308"));
    TABLE.add("| cavity N(1e308, 1e308) (computation fails) | `tilted` | " + r.code() + " | `"
        + r.err().strip() + "` |");
    assertEquals(1, r.code(), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(
        r.err().contains("--cavity-variance 1.0E308") && r.err().contains("computation failed"),
        r.err());
    assertEquals("", r.out());
  }

  static String perms(Path p) throws IOException {
    return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void noCommandIsAUsageError() {
    java.io.StringWriter err = new java.io.StringWriter();
    int code = Main.run(new PrintWriter(err, true));
    TABLE.add("| no command | `approxgp` | " + code + " | usage text |");
    assertEquals(2, code);
    assertTrue(err.toString().contains("Usage: approxgp"), err.toString());
  }

  @Test
  void oneTrainingRowOfCountsFits() throws IOException {
    // one row is a valid (if weak) Poisson data set: the GP prior with one observation is well
    // defined
    Path dir = Files.createDirectories(base.resolve("ok-one-count-row"));
    Files.writeString(dir.resolve("train.csv"), "year,count\n3,2\n");
    Files.writeString(dir.resolve("test.csv"), countsTrain());
    Run r = run(substitute(concat(FIT_COUNTS, "--lengthscale", "3"), dir));
    TABLE.add("| one training row, counts (accepted) | `fit` | " + r.code() + " | `"
        + r.err().strip() + "` |");
    assertEquals(0, r.code(), r.err());
    String pred = Files.readString(dir.resolve("out.csv"));
    assertFalse(pred.contains("NaN") || pred.contains("Infinity"), pred);
    assertEquals(13, pred.lines().count());
  }

  @Test
  void javaApiAcceptsBomCrlfAndQuotedCommas() throws IOException {
    Path dir = Files.createDirectories(base.resolve("api-ok"));
    Path p = dir.resolve("ok.csv");
    Files.writeString(
        p,
        "\uFEFFa,\"b, the second\",label\r\n1,2,\"yes, sir\"\r\n3,4,no\r\n",
        StandardCharsets.UTF_8);
    Dataset d = Datasets.loadBinary(p.toString(), "label", "yes, sir");
    assertEquals(List.of("a", "b, the second"), d.featureNames());
    assertArrayEquals(new double[][] {{1, 2}, {3, 4}}, d.features());
    assertArrayEquals(new double[] {1, -1}, d.target());
  }

  @AfterAll
  static void writeTable() throws IOException {
    List<String> rows = new ArrayList<>(TABLE);
    Collections.sort(rows);
    Path out = Path.of("target", "bad-input-table.md");
    Files.createDirectories(out.getParent());
    StringBuilder sb =
        new StringBuilder("| case | entry point | exit code | message |\n|---|---|---|---|\n");
    rows.forEach(r -> sb.append(r).append('\n'));
    Files.writeString(out, sb.toString(), StandardCharsets.UTF_8);
    System.out.println("bad-input table (" + rows.size() + " rows): " + out.toAbsolutePath());
  }
}
