package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shipped stores: rows compressed into {@code <hash>.jsonl.gz}, read before the appended {@code <hash>.jsonl}. */
class CompressedStoreTest {
  record Cfg(double scale) {}

  @TempDir
  Path dir;

  private final AtomicInteger calls = new AtomicInteger();

  private Experiment<Cfg, TrialKey> experiment(List<String> methods) {
    return Experiment.of("ship", new Cfg(2.0), Experiment.grid(methods, 3, 2), (c, k) -> {
      calls.incrementAndGet();
      return ResultRow.builder()
          .put("value", c.scale() * (k.seed() + 0.5 * k.fold()) + k.method().length())
          .build();
    });
  }

  private Runner runner() {
    return Runner.defaults()
        .withResultsRoot(dir)
        .withThreads(2)
        .withProgress(ProgressListener.none());
  }

  @Test
  void compressedRowsAreReusedAndNewRowsAppendBesideThem() throws IOException {
    Results<TrialKey> first = runner().run(experiment(List.of("a")));
    Path gz = runner().compress(experiment(List.of("a")));
    assertTrue(gz.getFileName().toString().endsWith(".jsonl.gz"), gz.toString());
    assertFalse(Files.exists(first.file()), "the plain rows moved into the compressed file");
    byte[] bytes = Files.readAllBytes(gz);
    assertEquals(gz, runner().compress(experiment(List.of("a"))), "compressing again");
    assertArrayEquals(bytes, Files.readAllBytes(gz), "the same rows give the same bytes");

    calls.set(0);
    Results<TrialKey> again = runner().run(experiment(List.of("a")));
    assertEquals(0, calls.get(), "every trial read back from the compressed file");
    assertEquals(first.rows(), again.rows());

    // a wider selection runs only its new trials, appended to the plain file beside the compressed
    // one
    Results<TrialKey> wider = runner().run(experiment(List.of("a", "bb")));
    assertEquals(6, calls.get());
    assertEquals(6, wider.reused());
    assertTrue(Files.exists(first.file()) && Files.exists(gz));
    assertTrue(runner().verify(experiment(List.of("a", "bb")), 12, 0).passed());
    // and compressing merges both
    runner().compress(experiment(List.of("a", "bb")));
    assertFalse(Files.exists(first.file()));
    calls.set(0);
    assertEquals(12, runner().run(experiment(List.of("a", "bb"))).reused());
    assertEquals(0, calls.get());
  }

  @Test
  void nothingStoredCompressesToNothingAndABrokenFileIsRefused() throws IOException {
    assertNull(runner().compress(experiment(List.of("a"))));
    runner().run(experiment(List.of("a")));
    Path gz = runner().compress(experiment(List.of("a")));
    byte[] b = Files.readAllBytes(gz);
    Files.write(gz, java.util.Arrays.copyOf(b, b.length / 2)); // truncated in transit
    assertThrows(StoreCorruptException.class, () -> runner().run(experiment(List.of("a"))));
  }

  @Test
  void theCompressedFileIsAStoreFileNoOutputMayOverwrite() {
    runner().run(experiment(List.of("a")));
    Path gz = runner().compress(experiment(List.of("a")));
    assertTrue(StoreFiles.damageIfWritten(gz, dir).isPresent());
  }
}
