package org.approxgp.report.display.jjava;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.dflib.jjava.jupyter.channels.ShellReplyEnvironment;
import org.dflib.jjava.jupyter.kernel.BaseKernel;
import org.dflib.jjava.jupyter.kernel.DisplayStream;
import org.dflib.jjava.jupyter.kernel.JupyterIO;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;

/**
 * One {@code stream} message per burst of printing under JJava, as {@code CellStreams} does for the rapaio kernel.
 *
 * <p>JJava 1.0-a6 gives cells {@code new PrintStream(jupyterOut, true)}: an auto-flushing {@code PrintStream} flushes
 * after every write, {@code printf} writes its format piece by piece, and each flush of {@code JupyterOutputStream}
 * publishes a stream message, so {@code printf("%s: %d%n", a, b)} reached the report as four outputs. Here
 * {@code JupyterIO.out}/{@code err} become print streams over {@link Held} streams, which keep the text and hand it
 * to JJava's own stream (one write, one flush, one message):
 * <ul>
 *   <li>before a display or a display update ({@code JupyterIO.display} becomes an {@link OrderedDisplay}) and
 *       before a value this extension renders (tables, charts, the library's records: the cell's result), so text
 *       stays in order with what follows it;</li>
 *   <li>before the other stream is written to (stdout and stderr stay in order);</li>
 *   <li>when the request's reply environment resolves its deferred actions, which JJava runs last-in first-out
 *       after the execute reply and before the idle status (this release is deferred while the cell runs, so it runs
 *       before JJava's own deferred {@code retractEnv}, after which text would be dropped);</li>
 *   <li>in JupyterLab, after {@value #QUIET_MS} ms without output or when the oldest held text is {@value #MAX_HOLD_MS}
 *       ms old, so a long cell's prints still appear as they happen; with {@code APPROXGP_STREAMS=cell} (what
 *       {@code bin/reproduce} sets) there is no timer and a report shows a cell's text between two displays as one
 *       block.</li>
 * </ul>
 * Not ordered: text still held when a cell throws reaches the notebook after the error message (JJava publishes the
 * error directly; the release follows at the deferred step). The fields replaced are JJava's public final fields of
 * {@code JupyterIO} ({@code out}, {@code err}, {@code display}) and the private {@code JupyterOutputStream.env} read to
 * find the request; a JJava that renames them fails here at install, loudly, not in a cell.
 */
final class JJavaStreams {

  static final long QUIET_MS = 300;
  static final long MAX_HOLD_MS = 2000;

  private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "approxgp-jjava-streams");
    t.setDaemon(true);
    return t;
  });

  private static Held out;
  private static Held err;

  private JJavaStreams() {}

  /** Replaces the kernel's stdout, stderr and display stream (see the class comment). */
  static synchronized void install(BaseKernel kernel) throws ReflectiveOperationException {
    if (out != null) {
      return;
    }
    boolean timed = !"cell".equals(System.getenv("APPROXGP_STREAMS"));
    JupyterIO io = kernel.getIO();
    Held o = new Held((OutputStream) read(io, "jupyterOut"), timed);
    Held e = new Held((OutputStream) read(io, "jupyterErr"), timed);
    o.sibling = e;
    e.sibling = o;
    write(io, "out", new PrintStream(o, true, StandardCharsets.UTF_8));
    write(io, "err", new PrintStream(e, true, StandardCharsets.UTF_8));
    write(io, "display", new OrderedDisplay());
    out = o;
    err = e;
  }

  /** Sends the text both streams hold (before a rendered value or a display). */
  static void release() {
    Held o = out;
    Held e = err;
    if (o != null) {
      o.release();
      e.release();
    }
  }

  private static Object read(Object owner, String name) throws ReflectiveOperationException {
    Field f = owner.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(owner);
  }

  private static void write(Object owner, String name, Object value) throws ReflectiveOperationException {
    Field f = owner.getClass().getDeclaredField(name);
    f.setAccessible(true);
    f.set(owner, value);
  }

  /** JJava's display stream, releasing held text before each display and update. */
  static final class OrderedDisplay extends DisplayStream {
    @Override
    public void display(DisplayData data) {
      release();
      super.display(data);
    }

    @Override
    public void updateDisplay(DisplayData data) {
      release();
      super.updateDisplay(data);
    }
  }

  /** A stream that holds its text until {@link #release()} (see the class comment). */
  static final class Held extends OutputStream {
    private final OutputStream jupyter;
    private final boolean timed;
    private final ByteArrayOutputStream held = new ByteArrayOutputStream();
    private Held sibling;
    private Object deferredFor;
    private long firstHeld;
    private ScheduledFuture<?> timer;

    Held(OutputStream jupyter, boolean timed) {
      this.jupyter = jupyter;
      this.timed = timed;
    }

    @Override
    public void write(int b) {
      sibling.release();
      synchronized (this) {
        held.write(b);
        afterWrite();
      }
    }

    @Override
    public void write(byte[] b, int off, int len) {
      sibling.release();
      synchronized (this) {
        held.write(b, off, len);
        afterWrite();
      }
    }

    /** The print stream's auto-flush after each piece: nothing is sent here. */
    @Override
    public void flush() {}

    private void afterWrite() {
      Object env = environment();
      if (env instanceof ShellReplyEnvironment s && env != deferredFor) {
        deferredFor = env;
        s.defer(this::release);
      }
      if (!timed) {
        return;
      }
      long now = System.currentTimeMillis();
      if (firstHeld == 0) {
        firstHeld = now;
      }
      if (timer != null) {
        timer.cancel(false);
      }
      long wait = Math.max(0, Math.min(QUIET_MS, firstHeld + MAX_HOLD_MS - now));
      timer = TIMER.schedule(this::release, wait, TimeUnit.MILLISECONDS);
    }

    /** The request JJava's own stream would send with now (its private env), or null between requests. */
    private Object environment() {
      try {
        return read(jupyter, "env");
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("JJava's JupyterOutputStream has no field env", e);
      }
    }

    /** Sends what is held as one stream message. */
    synchronized void release() {
      firstHeld = 0;
      if (timer != null) {
        timer.cancel(false);
        timer = null;
      }
      if (held.size() == 0) {
        return;
      }
      try {
        held.writeTo(jupyter);
        jupyter.flush();
      } catch (java.io.IOException e) {
        // a ByteArrayOutputStream-backed stream does not throw; nothing the cell can do about it
      }
      held.reset();
    }
  }
}
