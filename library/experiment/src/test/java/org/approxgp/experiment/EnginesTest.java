package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Engine selection by name and by environment, in the core alone (no Spark module on this class path). */
class EnginesTest {

  @Test
  void localEngineIsTheThreadPool() {
    assertEquals("local(3 threads)", Engines.executor("local", null, 3).toString());
    assertEquals(
        "local(" + Runtime.getRuntime().availableProcessors() + " threads)",
        Engines.executor("LOCAL", null, 0).toString());
    assertThrows(IllegalArgumentException.class, () -> Engines.executor("local", "local[2]", 1));
    assertThrows(IllegalArgumentException.class, () -> Engines.executor("local", null, -1));
  }

  @Test
  void sparkWithoutItsModuleSaysWhatToBuild() {
    var e = assertThrows(
        Engines.EngineUnavailableException.class, () -> Engines.executor("spark", null, 0));
    assertTrue(
        e.getMessage().contains("mvn -pl library/spark -am -DskipTests package"), e.getMessage());
    var u = assertThrows(IllegalArgumentException.class, () -> Engines.executor("flink", null, 0));
    assertTrue(u.getMessage().contains("unknown engine 'flink'"), u.getMessage());
  }

  @Test
  void defaultsFollowTheEngineProperty() {
    String old = System.getProperty("approxgp.engine");
    try {
      System.setProperty("approxgp.engine", "spark");
      assertEquals("spark", Engines.fromEnvironment());
      assertThrows(Engines.EngineUnavailableException.class, Runner::defaults);
      System.setProperty("approxgp.engine", "local");
      assertTrue(Runner.defaults().executor().toString().startsWith("local("));
    } finally {
      if (old == null) {
        System.clearProperty("approxgp.engine");
      } else {
        System.setProperty("approxgp.engine", old);
      }
    }
  }

  /**
   * An engine module found on {@code approxgp.spark.classpath} (as the notebook kernel finds library/spark/target/engine):
   * a provider compiled here into a jar of a directory is loaded by a class loader of its own (not the class path's)
   * only when {@code spark} is chosen, its executor works through the library's interfaces, and the loader is made
   * once per path.
   */
  @Test
  void sparkIsLoadedOnDemandFromItsModulePath(@TempDir Path dir) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    Assumptions.assumeTrue(javac != null, "no compiler in this JVM");
    Path src = dir.resolve("src/org/approxgp/spark/FakeEngine.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, """
        package org.approxgp.spark;
        import org.approxgp.experiment.*;
        public final class FakeEngine implements TrialExecutorProvider {
          public String engine() { return "spark"; }
          public TrialExecutor create(String master, int threads) {
            TrialExecutor local = TrialExecutor.local(1);
            return new TrialExecutor() {
              public <C extends Record, K extends Record> void execute(Experiment<C, K> e, java.util.List<K> pending,
                  Callback<K> callback) throws InterruptedException {
                local.execute(e, pending, callback);
              }
              public String toString() { return "fake spark on " + master; }
            };
          }
        }
        """);
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes);
    int rc = javac.run(
        null,
        null,
        null,
        "-d",
        classes.toString(),
        "-cp",
        System.getProperty("java.class.path"),
        src.toString());
    assertEquals(0, rc, "compiling the fake engine");
    Path engineDir = dir.resolve("engine");
    Files.createDirectories(engineDir);
    try (JarOutputStream jar =
        new JarOutputStream(Files.newOutputStream(engineDir.resolve("fake-engine.jar")))) {
      for (String name :
          List.of("org/approxgp/spark/FakeEngine.class", "org/approxgp/spark/FakeEngine$1.class")) {
        jar.putNextEntry(new JarEntry(name));
        jar.write(Files.readAllBytes(classes.resolve(name)));
        jar.closeEntry();
      }
      jar.putNextEntry(
          new JarEntry("META-INF/services/org.approxgp.experiment.TrialExecutorProvider"));
      jar.write(
          "org.approxgp.spark.FakeEngine\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      jar.closeEntry();
    }
    String old = System.getProperty("approxgp.spark.classpath");
    try {
      System.setProperty(
          "approxgp.spark.classpath",
          dir.resolve("missing") + java.io.File.pathSeparator + engineDir);
      TrialExecutor ex = Engines.executor("spark", "local[2]", 0);
      assertEquals("fake spark on local[2]", ex.toString());
      assertEquals("approxgp-engine", ex.getClass().getClassLoader().getName());
      assertEquals(
          ex.getClass().getClassLoader(),
          Engines.executor("spark", null, 0).getClass().getClassLoader());
      // the rows of an experiment come back through the library's own types
      var exp = SmokePipeline.experiment(SmokePipeline.Config.forMode(ProjectPaths.Mode.SMOKE));
      var rows = Runner.of(ex)
          .withResultsRoot(dir.resolve("results"))
          .withProgress(ProgressListener.none())
          .run(exp);
      assertEquals(
          Runner.of(TrialExecutor.local(1))
              .withResultsRoot(dir.resolve("results-local"))
              .withProgress(ProgressListener.none())
              .run(exp)
              .rows(),
          rows.rows());
      System.setProperty("approxgp.spark.classpath", dir.resolve("missing").toString());
      var e = assertThrows(
          Engines.EngineUnavailableException.class, () -> Engines.executor("spark", null, 0));
      assertTrue(
          e.getMessage().contains("APPROXGP_SPARK_CLASSPATH (" + dir.resolve("missing") + ")"),
          e.getMessage());
    } finally {
      if (old == null) {
        System.clearProperty("approxgp.spark.classpath");
      } else {
        System.setProperty("approxgp.spark.classpath", old);
      }
    }
  }
}
