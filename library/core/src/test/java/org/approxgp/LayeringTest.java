package org.approxgp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package layering inside the core module (docs/architecture.md: dependencies flow downward), checked on the
 * sources: a package may use only packages of a lower layer. Every reference counts — {@code import} lines and
 * fully qualified names in code — but not comments (Javadoc may mention a higher layer to point the reader to
 * it). Above the core, the Maven modules are the layers (experiment, papers, report, cli, spark): a module
 * compiles against only the ones it declares, so the build itself refuses a reference upward.
 *
 * <pre>
 * 0 special
 * 1 linalg, data, metrics, optimize        (foundations; may use special)
 * 2 kernel, likelihood, baseline
 * 3 projection
 * 4 inference
 * 5 sparse, reference
 * 6 model
 * </pre>
 */
class LayeringTest {

  static final Map<String, Integer> LAYER = Map.ofEntries(
      Map.entry("special", 0),
      Map.entry("linalg", 1),
      Map.entry("data", 1),
      Map.entry("metrics", 1),
      Map.entry("optimize", 1),
      Map.entry("baseline", 2),
      Map.entry("kernel", 2),
      Map.entry("likelihood", 2),
      Map.entry("projection", 3),
      Map.entry("inference", 4),
      Map.entry("sparse", 5),
      Map.entry("reference", 5),
      Map.entry("model", 6));

  private static final Path MAIN = Path.of("src/main/java/org/approxgp");
  private static final Pattern REF = Pattern.compile("\\borg\\.approxgp\\.([a-z][a-z0-9]*)\\b");
  private static final Pattern COMMENTS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
  private static final Pattern STRINGS = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"");

  /** Top-level package of a source file ("papers" for papers.qp), from its path under MAIN. */
  static String packageOf(Path file) {
    return MAIN.relativize(file).getName(0).toString();
  }

  /** The code of a Java source without comments and string literals. */
  static String code(String source) {
    return COMMENTS.matcher(STRINGS.matcher(source).replaceAll("\"\"")).replaceAll(" ");
  }

  @Test
  void noPackageUsesOneAboveIt() throws IOException {
    List<String> violations = new ArrayList<>();
    TreeSet<String> unknown = new TreeSet<>();
    int files = 0;
    try (Stream<Path> s = Files.walk(MAIN)) {
      for (Path f : s.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
        files++;
        String pkg = packageOf(f);
        if (!LAYER.containsKey(pkg)) {
          unknown.add(pkg);
          continue;
        }
        Matcher m = REF.matcher(code(Files.readString(f, StandardCharsets.UTF_8)));
        TreeSet<String> used = new TreeSet<>();
        while (m.find()) {
          used.add(m.group(1));
        }
        for (String u : used) {
          if (u.equals(pkg)) {
            continue;
          }
          Integer layer = LAYER.get(u);
          if (layer == null) {
            unknown.add(u);
          } else if (layer >= LAYER.get(pkg)) {
            violations.add(MAIN.relativize(f) + " (" + pkg + ", layer " + LAYER.get(pkg) + ") uses "
                + u + " (layer " + layer + ")");
          }
        }
      }
    }
    assertTrue(files > 50, "found only " + files + " sources under " + MAIN.toAbsolutePath());
    assertEquals(new TreeSet<>(), unknown, "packages missing from this test's layer table");
    assertEquals(List.of(), violations, "layering violations");
  }

  @Test
  void scannerSeesImportsAndQualifiedNamesButNotComments() {
    String src =
        "package x;\nimport org.approxgp.model.GpModel;\n/** see {@link org.approxgp.cli.Main} */\n"
            + "class A { Object o = new org.approxgp.report.Tables(); // org.approxgp.papers.Foo\n"
            + " String s = \"org.approxgp.experiment.Runner\"; }\n";
    Matcher m = REF.matcher(code(src));
    TreeSet<String> used = new TreeSet<>();
    while (m.find()) {
      used.add(m.group(1));
    }
    assertEquals(new TreeSet<>(List.of("model", "report")), used);
  }
}
