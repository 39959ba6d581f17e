package org.approxgp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core JAR never depends on Apache Spark (or Scala): Spark lives in the {@code approxgp-spark}
 * module and is loaded by {@link java.util.ServiceLoader} only when that module is on the class path.
 * Checked three ways: the library's dependency list, its class path (this test runs on the library's
 * compile, runtime and test dependencies), and its sources.
 */
class CoreHasNoSparkTest {

  @Test
  void pomDeclaresNoSparkOrScala() throws IOException {
    String pom = Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8);
    assertFalse(pom.contains("org.apache.spark"), "library/pom.xml names org.apache.spark");
    assertFalse(pom.contains("org.scala-lang"), "library/pom.xml names org.scala-lang");
    assertFalse(pom.contains("approxgp-spark"), "library/pom.xml names the spark module");
  }

  @Test
  void sparkAndScalaAreNotOnTheLibrarysClassPath() {
    for (String c : List.of(
        "org.apache.spark.SparkContext", "scala.Function1", "org.approxgp.spark.SparkEngine")) {
      assertThrows(
          ClassNotFoundException.class, () -> Class.forName(c), c + " is on the core's class path");
    }
  }

  @Test
  void noMainSourceMentionsSpark() throws IOException {
    Pattern spark = Pattern.compile("\\b(org\\.apache\\.spark|scala\\.|org\\.approxgp\\.spark)\\.");
    try (Stream<Path> s = Files.walk(Path.of("src/main/java"))) {
      List<String> hits = s.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> {
            try {
              return LayeringTest.code(Files.readString(p, StandardCharsets.UTF_8))
                  .lines()
                  .anyMatch(l -> spark.matcher(l).find());
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          })
          .map(Path::toString)
          .toList();
      assertEquals(List.of(), hits);
    }
  }
}
