package org.approxgp.report.display.rapaio;

import java.lang.reflect.Field;
import java.util.Map;
import java.nio.charset.StandardCharsets;
import org.rapaio.jupyter.kernel.MainApp;
import org.rapaio.jupyter.kernel.channels.Channels;
import org.rapaio.jupyter.kernel.channels.MessageHandler;
import org.rapaio.jupyter.kernel.core.Transform;
import org.rapaio.jupyter.kernel.core.java.JavaEngine;
import org.rapaio.jupyter.kernel.core.java.RapaioExecutionControl;
import org.rapaio.jupyter.kernel.core.java.RapaioExecutionControlProvider;
import org.rapaio.jupyter.kernel.message.HMACDigest;
import org.rapaio.jupyter.kernel.message.Message;
import org.rapaio.jupyter.kernel.message.MessageType;
import org.rapaio.jupyter.kernel.message.messages.IOPubStatus;
import sun.misc.Signal;

/**
 * Entry point of the approxgp-java kernelspec: rapaio-jupyter-kernel's {@code MainApp}, with interrupts taken
 * from SIGINT (kernelspec {@code "interrupt_mode": "signal"}) and handled here instead of by the kernel's
 * {@code interrupt_request} handler, which has two bugs in 3.0.1 (seen with JupyterLab 4.6 and jupyter_client):
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
 * <p>Before the kernel binds its sockets this class also builds, signs and serialises one status message, so
 * that the first real one (sent by {@code Channels.connect} between binding the sockets and installing the
 * message handlers) is fast: a request arriving in that window is lost, or kills the shell thread (see
 * {@code run-kernel.sh}), and a cold JVM on a loaded machine made the window long.
 *
 * <p>Once the kernel is connected it wraps the {@code kernel_info_request} handler so that it publishes
 * {@code busy}/{@code idle} around its reply, as other kernels do. Jupyter's server, when a browser connects,
 * re-sends {@code kernel_info_request} until it sees a reply <em>and</em> an iopub message; rapaio sends no iopub
 * message for it, so every connection (and reconnection after a restart) waited the whole
 * {@code kernel_info_timeout}, and JupyterLab showed the kernel's state as "unknown" until the first cell ran.
 */
public final class KernelMain {

  private KernelMain() {
  }

  public static void main(String[] args) throws Exception {
    Signal.handle(new Signal("INT"), s -> {
      Thread t = new Thread(KernelMain::interruptRunningCell, "approxgp-sigint");
      t.setDaemon(true);
      t.start();
    });
    prewarm();
    Thread status = new Thread(KernelMain::statusAroundKernelInfo, "approxgp-kernel-info-status");
    status.setDaemon(true);
    status.start();
    MainApp.main(args);
  }

  /** Waits (up to 5 minutes) for the kernel's message handlers, then wraps the kernel_info one; see above. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static void statusAroundKernelInfo() {
    try {
      for (int i = 0; i < 15_000; i++) {
        Channels channels = MainApp.kernel == null ? null : MainApp.kernel.channels();
        Map<Object, MessageHandler> handlers = channels == null ? null : (Map<Object, MessageHandler>) field(channels,
            "handlers");
        MessageHandler original = handlers == null ? null : handlers.get(MessageType.SHELL_KERNEL_INFO_REQUEST);
        if (original != null) {
          handlers.put(MessageType.SHELL_KERNEL_INFO_REQUEST, (MessageHandler) m -> {
            channels.busyThenIdle();
            original.handle(m);
          });
          return;
        }
        Thread.sleep(20);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ReflectiveOperationException | RuntimeException e) {
      System.err.println("approxgp: kernel_info status wrapper not installed: " + e);
    }
  }

  /** Best effort: class initialisation, Gson adapters and HMAC of the first message, ahead of time. */
  static void prewarm() {
    try {
      Message<IOPubStatus> m = new Message<>(MessageType.IOPUB_STATUS, IOPubStatus.STARTING);
      byte[][] parts = {Transform.toJsonBytes(m.header()), Transform.toJsonBytes(m.parentHeader()),
          Transform.toJsonBytes(m.metadata()), Transform.toJsonBytes(m.content())};
      new HMACDigest("hmac-sha256", "approxgp-prewarm").computeSignature(parts);
      Transform.fromJson("{}".getBytes(StandardCharsets.UTF_8), java.util.Map.class);
    } catch (Exception | LinkageError e) {
      // only a speed-up
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

  private static Object field(Object o, String name) throws ReflectiveOperationException {
    Field f = o.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(o);
  }
}
