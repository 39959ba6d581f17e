package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ConsoleProgressTest {

  @Test
  void nonInteractivePrintsSparseLinesWithEtaFromAFakeClock() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    AtomicLong now = new AtomicLong();
    ConsoleProgress p =
        new ConsoleProgress(new PrintStream(buf, true, StandardCharsets.UTF_8), false, now::get);
    p.started("exp", 100, 20);
    for (int done = 21; done <= 100; done++) {
      now.addAndGet(1_000_000_000L); // one second per trial
      p.advanced(done, 0, 100);
    }
    p.finished(100, 0, 100);
    String[] lines = buf.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals("exp: 100 trials, 20 already in the results file, 80 to run", lines[0]);
    // deciles 2..10 → 9 progress lines, plus start and finish
    assertEquals(11, lines.length, String.join("\n", lines));
    assertTrue(
        lines[1].startsWith(
            "exp [######........................] 21/100  21% elapsed 00:01 ETA 01:19"),
        lines[1]);
    assertEquals("exp: finished 100/100 trials (0 failed) in 01:20", lines[10]);
  }

  @Test
  void clockFormatsHours() {
    assertEquals("1:01:01", ConsoleProgress.clock(3661));
    assertEquals("00:59", ConsoleProgress.clock(59.4));
  }
}
