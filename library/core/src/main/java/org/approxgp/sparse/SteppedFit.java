package org.approxgp.sparse;

import java.util.concurrent.SynchronousQueue;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A fit written as one call with a per-iteration {@link SnapshotListener} (SSGP's L-BFGS, VSSGP's loops), driven one
 * iteration at a time: the fit runs on a worker thread that pauses inside the listener after each iteration until
 * the next {@link #step()}, so that between steps the paused iterate's model can be built ({@link #snapshot()}:
 * the listener's supplier is valid while the fit is paused in it). The arithmetic is the fit's own, on one thread
 * at a time: the result is the same as calling the fit directly.
 *
 * <p>{@link #close()} abandons an unfinished fit: the paused worker is released with a cancellation and ends.
 *
 * @param <M> the model type
 */
final class SteppedFit<M> implements AutoCloseable {

  /** The fit's end: thrown from inside the listener to unwind an abandoned fit. */
  private static final class Cancelled extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Cancelled() {
      super(null, null, false, false);
    }
  }

  /** What the worker hands back after an iteration, or at the end. */
  private record Event<M>(int iteration, Supplier<M> model, M result, Throwable failure) {}

  private final SynchronousQueue<Boolean> go = new SynchronousQueue<>();
  private final SynchronousQueue<Event<M>> events = new SynchronousQueue<>();
  private final Thread worker;
  private Event<M> paused;
  private M result;
  private boolean finished;
  private boolean started;

  /** @param fit runs the whole fit, calling the listener it is given after every iteration, and returns the model */
  SteppedFit(String name, Function<SnapshotListener<M>, M> fit) {
    worker = new Thread(
        () -> {
          Event<M> end;
          try {
            if (!go.take()) {
              return;
            }
            M m = fit.apply((it, model) -> {
              try {
                events.put(new Event<>(it, model, null, null));
                if (!go.take()) {
                  throw new Cancelled();
                }
              } catch (InterruptedException e) {
                throw new Cancelled();
              }
            });
            end = new Event<>(-1, null, m, null);
          } catch (Cancelled | InterruptedException e) {
            return;
          } catch (Throwable t) {
            end = new Event<>(-1, null, null, t);
          }
          try {
            events.put(end);
          } catch (InterruptedException e) {
            // abandoned
          }
        },
        name);
    worker.setDaemon(true);
  }

  /**
   * Runs the fit to its next iteration (or its end).
   *
   * @return whether an iteration was made (false: the fit has finished, {@link #result()} holds its model)
   * @throws RuntimeException (or Error) the fit threw, unchanged
   */
  boolean step() {
    if (finished) {
      return false;
    }
    try {
      if (!started) {
        started = true;
        worker.start();
      }
      go.put(true);
      Event<M> e = events.take();
      if (e.iteration() >= 0) {
        paused = e;
        return true;
      }
      finished = true;
      paused = null;
      if (e.failure() != null) {
        if (e.failure() instanceof RuntimeException r) {
          throw r;
        }
        if (e.failure() instanceof Error err) {
          throw err;
        }
        throw new IllegalStateException(e.failure());
      }
      result = e.result();
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stepping " + worker.getName(), e);
    }
  }

  /** The model at the paused iterate (built now), or the fit's final model once it has finished. */
  M snapshot() {
    if (finished) {
      return result;
    }
    if (paused == null) {
      throw new IllegalStateException("no iteration yet");
    }
    return paused.model().get();
  }

  /** Whether the first {@link #step()} has started the fit. */
  boolean started() {
    return started;
  }

  /** Whether the fit has returned. */
  boolean finished() {
    return finished;
  }

  /** The fit's model, once finished. */
  M result() {
    return result;
  }

  @Override
  public void close() {
    if (started && !finished) {
      finished = true;
      go.offer(false);
      worker.interrupt();
    }
  }
}
