package org.approxgp.report.display.rapaio;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import org.rapaio.jupyter.kernel.MainApp;
import org.rapaio.jupyter.kernel.channels.AbstractChannel;
import org.rapaio.jupyter.kernel.channels.Channels;
import org.rapaio.jupyter.kernel.channels.LoopThread;
import org.rapaio.jupyter.kernel.channels.MessageHandler;
import org.rapaio.jupyter.kernel.core.ConnectionProperties;
import org.rapaio.jupyter.kernel.core.RapaioKernel;
import org.rapaio.jupyter.kernel.core.Transform;
import org.rapaio.jupyter.kernel.core.java.JavaEngine;
import org.rapaio.jupyter.kernel.core.java.RapaioExecutionControl;
import org.rapaio.jupyter.kernel.core.java.RapaioExecutionControlProvider;
import org.rapaio.jupyter.kernel.message.Header;
import org.rapaio.jupyter.kernel.message.Message;
import org.rapaio.jupyter.kernel.message.MessageType;
import org.rapaio.jupyter.kernel.message.messages.IOPubStatus;
import sun.misc.Signal;

/**
 * Entry point of the approxgp-java kernelspec: rapaio-jupyter-kernel 3.0.1's {@code MainApp.runKernel}, redone
 * here with two start-up races of that version closed, and with interrupts taken from SIGINT.
 *
 * <p><b>Start-up.</b> rapaio binds its five ZeroMQ sockets, starting one polling thread
 * ({@code LoopThread}) each for heartbeat, shell and control, and only then installs its message handlers.
 * <ul>
 *   <li>{@code LoopThread.start()} calls {@code Thread.start()} <em>before</em> it sets its {@code running} flag,
 *       and {@code run()} loops {@code while (running)}: a new thread that reads the flag first exits at once,
 *       silently. Its channel is then dead for good: a dead shell thread means no {@code kernel_info_reply} ever
 *       (the hang nbclient and JupyterLab waited on until their time-out), a dead heartbeat or control thread
 *       means no heartbeats or interrupts/shutdowns. Seen in thread dumps of hung kernels: one {@code Shell-0}
 *       thread instead of two (shell and control share that name) and/or no {@code Heartbeat-0}, no exception
 *       printed. Outside the kernel, {@code LoopThread} lost the race in 18 of 1,000 starts on a busy machine;
 *       a kernel start needs three to win, on a cold JVM. Still so in rapaio 3.0.4.</li>
 *   <li>A request that reaches the shell or control thread before the handlers exist throws a
 *       {@code NullPointerException} ({@code this.handlers is null}) that also ends that thread. Jupyter clients
 *       connect before the kernel's JVM is up and send {@code kernel_info_request} at once, so the request is
 *       usually waiting when the shell socket is bound.</li>
 * </ul>
 * This class therefore runs the kernel's start itself: it holds the shell and control channels' monitors while
 * {@code Channels.connect} binds the sockets and installs the handlers, so a polling thread that has a request
 * waits in the channel's synchronized {@code readMessage()} until the handlers are complete; then it stops every
 * channel's polling thread (whether it is running or has already exited) and starts a new one whose
 * {@code running} flag is set before {@code start()}. It reaches private fields of rapaio's {@code Channels},
 * channel classes and {@code LoopThread} by reflection; a missing field stops the kernel with a message at once
 * rather than leaving it half started, so a kernel upgrade cannot make it hang silently.
 *
 * <p><b>Restarts in JupyterLab.</b> The handler map becomes {@link Handlers}, which keeps non-control requests
 * off the control channel (rapaio's shell and control threads share one "current message", and a
 * {@code kernel_info_request} handled on control at the same time as one on shell misroutes the shell's reply)
 * and publishes an {@code idle} status that JupyterLab does not ignore after each {@code kernel_info_reply}.
 * Without both, a restarted kernel stayed "unknown" in JupyterLab (see {@link Handlers}).
 *
 * <p><b>Interrupts.</b> SIGINT (kernelspec {@code "interrupt_mode": "signal"}) is handled here instead of by the
 * kernel's {@code interrupt_request} handler, which has two bugs in 3.0.1 (seen with JupyterLab 4.6 and
 * jupyter_client):
 * <ul>
 *   <li>the shell and control channels share one "current message", so handling an {@code interrupt_request}
 *       replaces the running {@code execute_request}'s parent header: the interrupted cell's {@code idle}
 *       status goes out under the interrupt's header and JupyterLab shows the cell running ({@code [*]}) for
 *       ever;</li>
 *   <li>{@code JavaEngine.interrupt()} cancels the running cell and then also stops the execution control's
 *       thread pool and JShell, so every later cell silently produces nothing until the kernel is restarted.</li>
 * </ul>
 * On SIGINT this class only cancels the running cell's task ({@code RapaioExecutionControl.interrupt()}, which
 * interrupts the cell's thread); the cell ends with "Execution interrupted" and the kernel stays usable. The
 * execution control is reached through two private fields of {@code JavaEngine} (there is no accessor).
 *
 * <p><b>Stopping.</b> The kernel ends when the process that started it ends ({@link #exitWithParent}); SIGTERM ends
 * it through the JVM's shutdown hooks, which release the results stores' locks.
 *
 * <p><b>Printed text.</b> {@link CellStreams} sends a cell's printing as one stream message per burst, in order
 * with its displays (rapaio sent one message per fragment of every {@code printf}).
 */
public final class KernelMain {

  /** The channels with a polling thread, as named by fields of rapaio's {@code Channels}. */
  private static final String[] POLLED_CHANNELS = {"heartbeat", "shell", "control"};

  private KernelMain() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1 || args[0].startsWith("-")) {
      MainApp.main(args);   // rapaio's installer (-i ...) and its usage message
      return;
    }
    Signal.handle(new Signal("INT"), s -> {
      Thread t = new Thread(KernelMain::interruptRunningCell, "approxgp-sigint");
      t.setDaemon(true);
      t.start();
    });
    exitWithParent();
    Channels channels;
    try {
      channels = start(Path.of(args[0]));
    } catch (Throwable e) {
      // The polling threads started by connect() would otherwise keep a broken kernel alive (and silent).
      System.err.println("approxgp: the kernel could not start: " + e);
      e.printStackTrace();
      System.exit(1);
      return;
    }
    channels.joinUntilClose();
  }

  /**
   * Ends the kernel when the process that started it is gone ({@code JPY_PARENT_PID}, which jupyter_client sets for
   * a kernel it owns): nbconvert or a Jupyter server killed outright cannot shut its kernels down, and Jupyter starts
   * each kernel in a session of its own, which a signal to the parent's process group does not reach. The exit runs
   * the JVM's shutdown hooks, which release the locks of the results stores a cell holds.
   */
  static void exitWithParent() {
    String v = System.getenv("JPY_PARENT_PID");
    long pid;
    try {
      pid = v == null ? -1 : Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      return; // not a process id (a Windows handle): nothing to watch
    }
    if (pid <= 1) {
      return;
    }
    ProcessHandle.of(pid).ifPresent(parent -> parent.onExit().thenRun(() -> {
      System.err.println("approxgp: the kernel's parent process " + pid + " has ended; the kernel stops");
      System.exit(0);
    }));
  }

  /**
   * rapaio's {@code MainApp.runKernel} up to the join, with the handler map replaced by {@link Handlers} and the
   * polling threads restarted (see the class comment). Returns the connected channels.
   */
  static Channels start(Path connectionFile) throws Exception {
    LogManager.getLogManager().readConfiguration(MainApp.class.getClassLoader()
        .getResourceAsStream("logging.properties"));
    ConnectionProperties props = Transform.fromJson(Files.readString(connectionFile), ConnectionProperties.class);
    // The kernel (JShell) is built by MainApp's class initialisation; do it before any socket is bound. Building
    // it prints two lines per class-path entry ("Parsing classpath: …", "Add … to classpath") to stdout, which
    // is nbconvert's terminal: those are dropped (about 70 lines, none of them the user's).
    PrintStream stdout = System.out;
    RapaioKernel kernel;
    System.setOut(new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
    try {
      kernel = MainApp.kernel;
    } finally {
      System.setOut(stdout);
    }
    Channels channels = new Channels(props);
    Object shell = field(channels, "shell");
    Object control = field(channels, "control");
    Handlers handlers = new Handlers((AbstractChannel) field(channels, "iopub"));
    Thread oldShellThread;
    // rapaio's own "Unhandled message" for the kernel_info_requests Handlers turns away on the control channel
    CONTROL_LOG.setFilter(r -> r.getMessage() == null || !r.getMessage().endsWith("Unhandled message: "
        + MessageType.SHELL_KERNEL_INFO_REQUEST.name()));
    // A polling thread reads a request through the channel's synchronized readMessage(): holding both monitors
    // while connect() binds the sockets and installs the handlers keeps every request waiting until the
    // handlers are complete (rapaio's map is empty, then filled, in between).
    synchronized (shell) {
      synchronized (control) {
        channels.connect(kernel);
        CellStreams.install(kernel, (AbstractChannel) field(channels, "iopub"));
        Object real = field(channels, "handlers");
        if (!(real instanceof Map) || ((Map<?, ?>) real).get(MessageType.SHELL_KERNEL_INFO_REQUEST) == null) {
          throw new IllegalStateException("Channels.connect installed no kernel_info handler");
        }
        oldShellThread = (Thread) field(shell, "loopThread");
        handlers.open(asHandlerMap(real), oldShellThread);
        setField(channels, "handlers", handlers);
        if (oldShellThread.getState() == Thread.State.BLOCKED) {
          System.err.println("approxgp: start-up: a request arrived before the kernel's handlers; held until they"
              + " were installed");
        }
      }
    }
    for (String name : POLLED_CHANNELS) {
      Object channel = field(channels, name);
      LoopThread fresh = replaceLoop(channel);
      if (channel == shell) {
        handlers.addShellThread(fresh);
      }
      fresh.start();
    }
    return channels;
  }

  private static final Logger CONTROL_LOG = Logger.getLogger("ControlChannel");

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Map<Object, MessageHandler> asHandlerMap(Object real) {
    return (Map<Object, MessageHandler>) real;
  }

  /**
   * Stops the channel's polling thread (it may have exited already: the start race above) and puts in its place
   * an equal one ({@code LoopThread(name, sleep, body)}) whose {@code running} flag is already set; the caller
   * starts it.
   */
  static LoopThread replaceLoop(Object channel) throws ReflectiveOperationException, InterruptedException {
    LoopThread old = (LoopThread) field(channel, "loopThread");
    if (old == null) {
      throw new IllegalStateException(channel.getClass().getSimpleName() + " has no polling thread");
    }
    boolean exited = !old.isAlive();
    old.shutdown();
    old.join();
    if (exited) {
      System.err.println("approxgp: start-up: the " + channel.getClass().getSimpleName() + "'s polling thread had"
          + " already exited (rapaio LoopThread start race); replaced");
    }
    LoopThread fresh = new LoopThread(old.getName(), (Long) field(old, "sleep"), (Runnable) field(old, "loopBody"));
    setField(fresh, "running", true);
    setField(channel, "loopThread", fresh);
    return fresh;
  }

  /**
   * The channels' handler map ({@code Channels.getHandler} reads it from the shell and the control thread) in
   * place of rapaio's, for the kernel's whole life.
   * <ul>
   *   <li>On the control channel only control requests ({@code shutdown_request}, {@code interrupt_request}) are
   *       handled; others, in practice the {@code kernel_info_request}s that Jupyter Server's "nudge" sends on
   *       shell and control together, get no handler (rapaio would log them as unhandled; that line is
   *       filtered). rapaio's shell and control threads share one "current message" and send every reply on
   *       the shell socket, so a control {@code kernel_info_request} handled while the shell thread handles one
   *       gives the shell request's reply the control request's routing identity and parent: the reply is
   *       dropped or mislabelled (7 of 40 shell replies lost when sent in such pairs directly). After a restart
   *       Jupyter Server waits for the reply to its one {@code kernel_info_request}. The control channel's own
   *       replies never reached a client anyway (sent on the shell socket).</li>
   *   <li>After each {@code kernel_info_reply} it also publishes an {@code idle} status without a parent (and,
   *       unlike rapaio's own {@code starting}, with a session in its header, which JupyterLab requires).
   *       JupyterLab ignores status messages whose parent is a {@code kernel_info_request} or
   *       {@code comm_info_request} (Jupyter Server's {@code untracked_message_types}), and those are the only
   *       ones rapaio publishes until a cell runs (its {@code starting} is sent as the sockets are bound, before
   *       anyone listens), so a restarted kernel stayed "unknown" in JupyterLab. The shell thread handles one
   *       request at a time and runs cells itself, so while it answers {@code kernel_info} the kernel is idle.</li>
   * </ul>
   */
  @SuppressWarnings("rawtypes")
  static final class Handlers extends AbstractMap<Object, MessageHandler> {
    private static final Set<Object> CONTROL_REQUESTS =
        Set.of(MessageType.CONTROL_SHUTDOWN_REQUEST, MessageType.CONTROL_INTERRUPT_REQUEST);
    private final Set<Thread> shellThreads = ConcurrentHashMap.newKeySet();
    private final AbstractChannel iopub;
    private volatile Map<Object, MessageHandler> real = Map.of();
    private volatile MessageHandler kernelInfo;
    private final String session = UUID.randomUUID().toString();

    Handlers(AbstractChannel iopub) {
      this.iopub = iopub;
    }

    @SuppressWarnings("unchecked")
    void open(Map<Object, MessageHandler> rapaioHandlers, Thread shellThread) {
      MessageHandler original = rapaioHandlers.get(MessageType.SHELL_KERNEL_INFO_REQUEST);
      kernelInfo = m -> {
        original.handle(m);
        // With a session in its header: JupyterLab drops a message without one (as it drops rapaio's "starting").
        Header<IOPubStatus> header = new Header<>(UUID.randomUUID().toString(), Header.KERNEL_USERNAME, session,
            Instant.now().toString(), MessageType.IOPUB_STATUS, Header.PROTOCOL_VERSION);
        iopub.sendMessage(new Message<>(List.of(), header, null, null, IOPubStatus.IDLE, null));
      };
      real = rapaioHandlers;
      shellThreads.add(shellThread);
    }

    void addShellThread(Thread t) {
      shellThreads.add(t);
    }

    @Override
    public MessageHandler get(Object type) {
      if (!CONTROL_REQUESTS.contains(type) && !shellThreads.contains(Thread.currentThread())) {
        return null;
      }
      return MessageType.SHELL_KERNEL_INFO_REQUEST.equals(type) ? kernelInfo : real.get(type);
    }

    @Override
    public Set<Entry<Object, MessageHandler>> entrySet() {
      return real.entrySet();
    }
  }

  static void interruptRunningCell() {
    try {
      JavaEngine engine = MainApp.kernel.javaEngine();
      RapaioExecutionControlProvider provider = (RapaioExecutionControlProvider) field(engine, "controlProvider");
      RapaioExecutionControl control = provider.getRegisteredControl((String) field(engine, "executionId"));
      if (control != null) {
        control.interrupt();
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      System.err.println("approxgp: could not interrupt the running cell: " + e);
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
