package org.approxgp.inference;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the blocks of {@link SiteBlock} live and run for {@link SparseSiteLoop}'s parallel schedule: in this JVM
 * ({@link #local()}, one block after the other) or elsewhere (the Spark engine of the {@code approxgp-spark} module,
 * a cached RDD of blocks). Every implementation answers each request with {@link SiteBlock#apply} on every block
 * and returns the answers sorted by block index; the loop adds them in that order, so every implementation gives
 * the same bits on the same JDK and BLAS (one BLAS thread, as by default: a multi-threaded BLAS may sum a block's
 * products in another order on another machine).
 */
public interface SiteBlocks {

  /**
   * Opens one run of the loop: every block of {@code problem}'s training rows forms its rows aₙ and dₙ at the
   * setup's kernel and Z ({@link SiteBlock#prepare}).
   *
   * @throws IllegalArgumentException when these blocks do not hold {@code problem}'s training rows
   */
  Run open(Problem problem, SiteBlock.Setup setup);

  /** One run's prepared blocks. */
  interface Run extends AutoCloseable {

    /** {@link SiteBlock#apply} of {@code step} on every block, sorted by block index. */
    List<SiteBlock.Result> apply(SiteBlock.Step step);

    /** Releases the prepared blocks. */
    @Override
    void close();
  }

  /** The blocks in this JVM, run one after the other in block order. */
  static SiteBlocks local() {
    return (problem, setup) -> {
      SiteBlock.Data[] data = SiteBlock.split(problem.x(), problem.y());
      List<SiteBlock.Prepared> prepared = new ArrayList<>(data.length);
      for (SiteBlock.Data d : data) {
        prepared.add(SiteBlock.prepare(d, setup));
      }
      return new Run() {
        @Override
        public List<SiteBlock.Result> apply(SiteBlock.Step step) {
          List<SiteBlock.Result> out = new ArrayList<>(prepared.size());
          for (SiteBlock.Prepared p : prepared) {
            out.add(SiteBlock.apply(p, setup, step));
          }
          return out;
        }

        @Override
        public void close() {
          prepared.clear();
        }
      };
    };
  }
}
