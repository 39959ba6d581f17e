package org.approxgp.experiment;

import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * An output of the running notebook cell that can be replaced in place: Jupyter's {@code display_data}
 * message with a {@code display_id}, then {@code update_display_data} messages for the same id (Jupyter
 * messaging protocol 5.1+). The library has no dependency on any kernel; each kernel adapter under
 * {@code notebooks/kernel/hooks/} registers an implementation with {@link ServiceLoader} in
 * {@code META-INF/services/org.approxgp.experiment.LiveDisplay}. Outside a kernel none is registered and
 * {@link #current()} is empty.
 */
public interface LiveDisplay {

  /** Whether a cell is executing now, so that {@link #show} and {@link #update} reach a notebook. */
  boolean active();

  /** Shows a new output of the running cell (HTML, with a plain-text alternative); returns its display id. */
  String show(String html, String text);

  /** Replaces the output shown under {@code id}, wherever it is in the notebook. */
  void update(String id, String html, String text);

  /**
   * The first registered display that is {@link #active()} now, looked up on the class loader that
   * loaded this interface (the kernel's class path holds the adapters). An adapter that fails to load
   * or to answer is skipped.
   */
  static Optional<LiveDisplay> current() {
    try {
      for (LiveDisplay d :
          ServiceLoader.load(LiveDisplay.class, LiveDisplay.class.getClassLoader())) {
        try {
          if (d.active()) {
            return Optional.of(d);
          }
        } catch (RuntimeException | LinkageError e) {
          // an adapter for another kernel than the one running: not usable here
        }
      }
    } catch (ServiceConfigurationError e) {
      // a broken registration: fall back to the console
    }
    return Optional.empty();
  }
}
