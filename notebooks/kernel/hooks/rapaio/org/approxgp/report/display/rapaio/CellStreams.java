package org.approxgp.report.display.rapaio;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.rapaio.jupyter.kernel.channels.AbstractChannel;
import org.rapaio.jupyter.kernel.channels.Channels;
import org.rapaio.jupyter.kernel.core.RapaioKernel;
import org.rapaio.jupyter.kernel.core.java.io.JShellOutputStream;
import org.rapaio.org.zeromq.ZMQ;

/**
 * One {@code stream} message per burst of printing, instead of one per fragment.
 *
 * <p>rapaio-jupyter-kernel 3.0.1 gives each cell {@code new PrintStream(console.getOut(), true)}; an auto-flushing
 * {@code PrintStream} flushes after every write, and {@code printf} writes its format piece by piece (the text
 * between conversions, then each converted value), so {@code printf("%s: %d%n", a, b)} went out as four stream
 * messages, which nbconvert keeps as four outputs, one per line of the report. Here the console's two streams are
 * replaced by {@link Stream}s that hold what is written and send it as one message:
 * <ul>
 *   <li>before any other message of the kernel (a display, an execute result, an error, a status), so the text
 *       stays in order with what follows it: the IOPub socket is wrapped ({@link OrderedSocket});</li>
 *   <li>before the other stream is written to (stdout and stderr stay in order);</li>
 *   <li>at the end of the cell (the console is unbound);</li>
 *   <li>in JupyterLab, after {@value #QUIET_MS} ms without output, or when the oldest held text is
 *       {@value #MAX_HOLD_MS} ms old, so a long cell's prints still appear as they happen. With
 *       {@code APPROXGP_STREAMS=cell} (what {@code bin/reproduce} sets) there is no timer: a report shows a cell's
 *       text between two displays as one block, however long the cell ran.</li>
 * </ul>
 * Messages are sent by the shell thread, the live display's thread or this class's own thread, never by the cell's
 * thread (see {@link RapaioLiveDisplay} on interrupted threads and ZeroMQ). Sending takes the IOPub channel's
 * monitor (the one {@code AbstractChannel.sendMessage} takes) and then a stream's: one order everywhere.
 */
final class CellStreams {

  static final long QUIET_MS = 300;
  static final long MAX_HOLD_MS = 2000;

  private static final ScheduledExecutorService SENDER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "approxgp-streams");
    t.setDaemon(true);
    return t;
  });

  private CellStreams() {
  }

  /** Replaces the kernel console's stdout and stderr and wraps the IOPub channel's socket. */
  static void install(RapaioKernel kernel, AbstractChannel iopub) throws ReflectiveOperationException {
    boolean timed = !"cell".equals(System.getenv("APPROXGP_STREAMS"));
    Object console = field(kernel, "shellConsole");
    Stream out = new Stream(false, iopub, timed);
    Stream err = new Stream(true, iopub, timed);
    out.sibling = err;
    err.sibling = out;
    setField(console, "out", out);
    setField(console, "err", err);
    ZMQ.Socket socket = (ZMQ.Socket) field(iopub, "socket");
    setField(iopub, "socket", new OrderedSocket(socket, () -> {
      out.release();
      err.release();
    }));
  }

  /** A console stream that holds its text until {@link #release()} (see the class comment). */
  static final class Stream extends JShellOutputStream {
    private final boolean err;
    private final Object sendLock;
    private final boolean timed;
    private volatile Channels channels;
    private Stream sibling;
    private volatile long lastWrite;
    private volatile long firstHeld;
    private boolean timerSet;

    Stream(boolean err, Object sendLock, boolean timed) {
      super(err);
      this.err = err;
      this.sendLock = sendLock;
      this.timed = timed;
    }

    @Override
    public void write(int b) {
      before();
      super.write(b);
      after();
    }

    @Override
    public void write(byte[] b, int off, int len) {
      before();
      super.write(b, off, len);
      after();
    }

    private void before() {
      if (sibling.size() > 0) {
        var f = SENDER.submit(sibling::release);
        try {
          f.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();   // the sender still sends it
        } catch (ExecutionException e) {
          // the text is lost with the channel; nothing the cell can do about it
        }
      }
    }

    private synchronized void after() {
      long now = System.currentTimeMillis();
      if (count > 0 && firstHeld == 0) {
        firstHeld = now;
      }
      lastWrite = now;
    }

    /** Called by the cell's auto-flushing PrintStream after each write, and by the console at the cell's end. */
    @Override
    public synchronized void flush() {
      if (timed && count > 0 && !timerSet) {
        timerSet = true;
        SENDER.schedule(this::tick, QUIET_MS, TimeUnit.MILLISECONDS);
      }
    }

    private void tick() {
      long wait;
      synchronized (this) {
        long now = System.currentTimeMillis();
        wait = count == 0 ? 0 : Math.min(QUIET_MS - (now - lastWrite), MAX_HOLD_MS - (now - firstHeld));
        if (wait > 0) {
          SENDER.schedule(this::tick, wait, TimeUnit.MILLISECONDS);
          return;
        }
        timerSet = false;
      }
      release();
    }

    /** Sends what is held as one stream message. */
    void release() {
      synchronized (sendLock) {
        String text;
        synchronized (this) {
          text = toString(StandardCharsets.UTF_8);
          reset();
          firstHeld = 0;
        }
        Channels c = channels;
        if (text.isEmpty() || c == null) {
          return;
        }
        if (err) {
          c.writeToStdErr(text);
        } else {
          c.writeToStdOut(text);
        }
      }
    }

    @Override
    public void bindChannels(Channels channels) {
      super.bindChannels(channels);
      this.channels = channels;
    }

    @Override
    public void unbindChannels() {
      release();
      this.channels = null;
      super.unbindChannels();
    }
  }

  /**
   * The IOPub socket, sending every message as before but running {@code beforeOther} first when the message is
   * not a {@code stream} message. {@code AbstractChannel.sendMessage} (synchronized on the channel) sends a message
   * as {@code sendMore} frames and a last {@code send}; the frames are held until the last one, whose header (the
   * second frame after the {@code <IDS|MSG>} delimiter) names the message type.
   */
  static final class OrderedSocket extends ZMQ.Socket {
    private static final byte[] DELIMITER = "<IDS|MSG>".getBytes(StandardCharsets.UTF_8);
    private static final Pattern STREAM = Pattern.compile("\"msg_type\"\\s*:\\s*\"stream\"");
    private final ZMQ.Socket real;
    private final Runnable beforeOther;
    private final List<byte[]> frames = new ArrayList<>();

    OrderedSocket(ZMQ.Socket real, Runnable beforeOther) {
      super(real.base());
      this.real = real;
      this.beforeOther = beforeOther;
    }

    @Override
    public boolean sendMore(byte[] data) {
      frames.add(data);
      return true;
    }

    @Override
    public boolean send(byte[] data) {
      frames.add(data);
      List<byte[]> message = List.copyOf(frames);
      frames.clear();
      if (!isStream(message)) {
        beforeOther.run();   // may send stream messages through this socket: frames is empty again by then
      }
      for (int i = 0; i < message.size() - 1; i++) {
        if (!real.sendMore(message.get(i))) {
          return false;
        }
      }
      return real.send(message.get(message.size() - 1));
    }

    private static boolean isStream(List<byte[]> message) {
      for (int i = 0; i + 2 < message.size(); i++) {
        if (Arrays.equals(message.get(i), DELIMITER)) {
          return STREAM.matcher(new String(message.get(i + 2), StandardCharsets.UTF_8)).find();
        }
      }
      return false;
    }

    @Override
    public void close() {
      real.close();
    }
  }

  private static Field declared(Object o, String name) throws NoSuchFieldException {
    for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
      } catch (NoSuchFieldException e) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(o.getClass().getName() + "." + name);
  }

  private static Object field(Object o, String name) throws ReflectiveOperationException {
    return declared(o, name).get(o);
  }

  private static void setField(Object o, String name, Object value) throws ReflectiveOperationException {
    declared(o, name).set(o, value);
  }
}
