package org.approxgp.data;

import java.util.Objects;

/**
 * Where a {@link Dataset} came from.
 *
 * @param source the file or classpath resource it was read from (or a short description for
 *     derived data sets)
 * @param detail free text: checksum, shape, how it was derived
 */
public record Provenance(String source, String detail) {
  public Provenance {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(detail, "detail");
  }

  /** A provenance for a data set derived from this one by {@code step}. */
  public Provenance derived(String step) {
    return new Provenance(source, detail.isEmpty() ? step : detail + "; " + step);
  }
}
