package org.approxgp.data;

/**
 * The coal-mining disasters data (Jarrett 1979) as yearly counts, the form used for Poisson
 * regression in the QP paper (112 years 1851–1962, input = year).
 */
public final class Coal {
  private Coal() {}

  /**
   * Counts events per calendar year: an event at decimal date {@code t} (e.g. 1851.2026) belongs to
   * year ⌊t⌋.
   *
   * @return counts for years {@code firstYear..lastYear} inclusive (index 0 = firstYear)
   * @throws IllegalArgumentException if a date is not finite or falls outside the year range
   */
  public static int[] yearlyCounts(double[] decimalDates, int firstYear, int lastYear) {
    if (lastYear < firstYear) {
      throw new IllegalArgumentException("lastYear " + lastYear + " < firstYear " + firstYear);
    }
    int[] counts = new int[lastYear - firstYear + 1];
    for (int i = 0; i < decimalDates.length; i++) {
      double t = decimalDates[i];
      if (!Double.isFinite(t)) {
        throw new IllegalArgumentException("date " + i + " is " + t);
      }
      long year = (long) Math.floor(t);
      if (year < firstYear || year > lastYear) {
        throw new IllegalArgumentException(
            "date " + i + " (" + t + ") is outside " + firstYear + ".." + lastYear);
      }
      counts[(int) (year - firstYear)]++;
    }
    return counts;
  }
}
