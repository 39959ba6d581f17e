package org.approxgp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core module depends on the linear algebra (EJML, JavaCPP's OpenBLAS) and Apache Commons only: none of
 * Apache Spark or Scala (the {@code approxgp-spark} module, loaded by {@link java.util.ServiceLoader} only when on
 * the class path), Tablesaw, XChart, picocli or Jackson (the modules above). Checked three ways: the module's pom,
 * its class path (this test runs on the core's compile, runtime and test dependencies) and its sources.
 */
class CoreDependenciesTest {

  /** Group ids (pom) and one class each (class path) of what the core must not depend on. */
  private static final List<String> GROUPS = List.of(
      "org.apache.spark",
      "org.scala-lang",
      "tech.tablesaw",
      "org.knowm.xchart",
      "info.picocli",
      "com.fasterxml.jackson");

  private static final List<String> CLASSES = List.of(
      "org.apache.spark.SparkContext",
      "scala.Function1",
      "tech.tablesaw.api.Table",
      "org.knowm.xchart.XYChart",
      "picocli.CommandLine",
      "com.fasterxml.jackson.databind.ObjectMapper",
      "org.approxgp.experiment.Runner",
      "org.approxgp.spark.SparkEngine");

  @Test
  void pomDeclaresNoneOfThem() throws IOException {
    String pom = Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8);
    for (String g : GROUPS) {
      assertFalse(pom.contains(g), "library/core/pom.xml names " + g);
    }
    String deps = pom.substring(pom.indexOf("<dependencies>"), pom.indexOf("</dependencies>"));
    assertFalse(
        deps.contains("approxgp-"), "library/core/pom.xml depends on another approxgp module");
  }

  @Test
  void noneIsOnTheCoresClassPath() {
    for (String c : CLASSES) {
      assertThrows(
          ClassNotFoundException.class, () -> Class.forName(c), c + " is on the core's class path");
    }
  }

  @Test
  void noMainSourceMentionsThem() throws IOException {
    Pattern foreign = Pattern.compile(
        "\\b(org\\.apache\\.spark|scala|tech\\.tablesaw|org\\.knowm|picocli|com\\.fasterxml"
            + "|org\\.approxgp\\.(spark|experiment|papers|report|cli))\\.");
    try (Stream<Path> s = Files.walk(Path.of("src/main/java"))) {
      List<String> hits = s.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> {
            try {
              return LayeringTest.code(Files.readString(p, StandardCharsets.UTF_8))
                  .lines()
                  .anyMatch(l -> foreign.matcher(l).find());
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          })
          .map(Path::toString)
          .toList();
      assertEquals(List.of(), hits);
    }
  }
}
