package org.approxgp.report.display.jjava;

import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.approxgp.experiment.LiveDisplay;
import org.dflib.jjava.jupyter.kernel.BaseKernel;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;

/**
 * {@link LiveDisplay} for JJava: {@code display_data} with a display id, then
 * {@code update_display_data}, through the kernel's {@code DisplayStream}. Registered in
 * {@code META-INF/services/org.approxgp.experiment.LiveDisplay}; found because this jar is on
 * {@code JJAVA_CLASSPATH}, i.e. in the class loader that loaded {@code LiveDisplay}.
 *
 * <p>As in the rapaio adapter, messages are sent from one daemon thread and the cell's thread only
 * waits for each send, so an interrupted cell thread never touches a ZeroMQ socket.
 */
public final class JJavaLiveDisplay implements LiveDisplay {

  private static final ExecutorService SENDER = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "approxgp-live-display");
    t.setDaemon(true);
    return t;
  });

  @Override
  public boolean active() {
    try {
      return BaseKernel.notebookKernel().getIO().display.isAttached();
    } catch (RuntimeException e) {
      return false;   // no kernel running (not in a notebook)
    }
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
    DisplayData d = new DisplayData(text);
    d.putHTML(html);
    d.setDisplayId(id);
    return d;
  }

  private static void send(DisplayData d, boolean update) {
    Future<?> f = SENDER.submit(() -> {
      var display = BaseKernel.notebookKernel().getIO().display;
      if (update) {
        display.updateDisplay(d);
      } else {
        display.display(d);
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
