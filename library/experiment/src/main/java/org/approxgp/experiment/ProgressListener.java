package org.approxgp.experiment;

/** Receives progress of a run; called from the thread that called {@link Runner#run}. */
public interface ProgressListener {

  /** {@code reused} trials were found finished in the results file and will not run again. */
  void started(String experiment, int total, int reused);

  /** One more trial finished (successfully or not); {@code done} counts reused trials too. */
  void advanced(int done, int failed, int total);

  void finished(int done, int failed, int total);

  /**
   * The run was interrupted (e.g. the notebook kernel's interrupt) after {@code done} trials; those are
   * stored and the next run resumes from them. Called on the runner's thread, before the runner throws.
   */
  default void interrupted(int done, int failed, int total) {}

  /**
   * The listener {@link Runner#defaults()} uses: in a notebook cell whose kernel adapter registers a
   * {@link LiveDisplay}, one {@link HtmlProgress} output updated in place; elsewhere
   * {@link ConsoleProgress#stderr()}.
   */
  static ProgressListener automatic() {
    return LiveDisplay.current()
        .<ProgressListener>map(HtmlProgress::new)
        .orElseGet(ConsoleProgress::stderr);
  }

  /** A listener that ignores everything. */
  static ProgressListener none() {
    return new ProgressListener() {
      @Override
      public void started(String experiment, int total, int reused) {}

      @Override
      public void advanced(int done, int failed, int total) {}

      @Override
      public void finished(int done, int failed, int total) {}
    };
  }
}
