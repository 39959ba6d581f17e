package org.approxgp.report.display.rapaio;

import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.approxgp.experiment.LiveDisplay;
import org.rapaio.jupyter.kernel.MainApp;
import org.rapaio.jupyter.kernel.display.DisplayData;

/**
 * {@link LiveDisplay} for rapaio-jupyter-kernel: {@code display_data} with a display id, then
 * {@code update_display_data}, through the kernel's own {@code RapaioKernel.display/updateDisplay}.
 * Registered in {@code META-INF/services/org.approxgp.experiment.LiveDisplay}.
 *
 * <p>The messages are sent from one daemon thread of this class and the cell's thread waits for each
 * send: interrupting a cell (Kernel → Interrupt) interrupts the cell's thread, and ZeroMQ socket I/O on
 * an interrupted thread can break the socket for good, so the cell's thread never touches a socket.
 */
public final class RapaioLiveDisplay implements LiveDisplay {

  private static final ExecutorService SENDER = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "approxgp-live-display");
    t.setDaemon(true);
    return t;
  });

  @Override
  public boolean active() {
    return MainApp.kernel != null && MainApp.kernel.channels() != null && MainApp.kernel.channels().hasMsgId();
  }

  @Override
  public String show(String html, String text) {
    String id = "approxgp-" + UUID.randomUUID();
    send(data(id, html, text), false);
    return id;
  }

  @Override
  public void update(String id, String html, String text) {
    send(data(id, html, text), true);
  }

  private static DisplayData data(String id, String html, String text) {
    DisplayData d = DisplayData.fromText(text);
    d.putHTML(html);
    d.setDisplayId(id);
    return d;
  }

  private static void send(DisplayData d, boolean update) {
    Future<?> f = SENDER.submit(() -> {
      if (update) {
        MainApp.kernel.updateDisplay(d);
      } else {
        MainApp.kernel.display(d);
      }
    });
    try {
      f.get(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();   // the message is still sent by the sender thread
    } catch (ExecutionException | TimeoutException e) {
      // progress is best effort: never fail a run because a display could not be sent
    }
  }
}
