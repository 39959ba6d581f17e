package org.approxgp.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Without the JavaCPP/OpenBLAS JARs on the class path (a child JVM), linalg falls back to EJML with one
 * log line, whether the native backend was asked for or chosen by default, and still computes.
 */
class NativeFallbackTest {

  /** Child JVM entry: prints the backend and a Cholesky log-det computed with it. */
  public static void main(String[] args) {
    Matrix a = Matrix.of(new double[][] {{4, 2}, {2, 3}});
    System.out.println(Linalg.backendName() + " " + Linalg.nativeAvailable() + " "
        + Cholesky.factor(a).logDet());
  }

  @ParameterizedTest(name = "-Dapproxgp.linalg={0}")
  @ValueSource(strings = {"", "native"})
  void fallsBackToEjmlWithOneLogLine(String wanted, @TempDir Path dir)
      throws IOException, InterruptedException {
    String cp = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !e.contains("bytedeco"))
        .collect(Collectors.joining(File.pathSeparator));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = wanted.isEmpty()
        ? new ProcessBuilder(java, "-cp", cp, NativeFallbackTest.class.getName())
        : new ProcessBuilder(
            java,
            "-D" + Linalg.PROPERTY + "=" + wanted,
            "-cp",
            cp,
            NativeFallbackTest.class.getName());
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child JVM did not finish");
    String stderr = Files.readString(err, StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), stderr);
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    assertEquals(1, lines.size(), lines.toString());
    String[] f = lines.get(0).split(" ");
    assertEquals("ejml", f[0]);
    assertEquals("false", f[1]);
    assertEquals(Math.log(8), Double.parseDouble(f[2]), 1e-15, "log det [[4, 2], [2, 3]] = log 8");
    long warnings = stderr
        .lines()
        .filter(l -> l.contains("native OpenBLAS backend unavailable"))
        .count();
    assertEquals(1, warnings, stderr);
  }
}
