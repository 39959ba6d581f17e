package org.approxgp.data;

/**
 * A data file could not be read or does not satisfy what was asked of it.
 *
 * <p>The message is a single line naming the file, the row and the column. Rows are the physical
 * line numbers of the CSV file, 1-based, <b>counting the header as row 1</b> (so the first data
 * record is row 2). {@link #row()} is 0 when the problem concerns no particular row (missing file,
 * a target with the wrong number of classes); {@link #column()} is {@code null} when it concerns no
 * particular column.
 */
public final class DataException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int row;
  private final String column;

  /**
   * @param file the file or resource name
   * @param row 1-based line number with the header as row 1, or 0 for none
   * @param column the column name, or {@code null} for none
   * @param problem what is wrong (one line)
   */
  public DataException(String file, int row, String column, String problem) {
    super(format(file, row, column, problem));
    this.file = file;
    this.row = row;
    this.column = column;
  }

  private static String format(String file, int row, String column, String problem) {
    StringBuilder sb = new StringBuilder(String.valueOf(file));
    if (row > 0) {
      sb.append(": row ").append(row);
    }
    if (column != null) {
      sb.append(row > 0 ? ", " : ": ").append("column '").append(column).append('\'');
    }
    sb.append(": ").append(problem.replace('\n', ' ').replace('\r', ' '));
    return sb.toString();
  }

  /** The file or resource name. */
  public String file() {
    return file;
  }

  /** 1-based line number, the header being row 1; 0 when no row is concerned. */
  public int row() {
    return row;
  }

  /** The column name, or {@code null} when no column is concerned. */
  public String column() {
    return column;
  }
}
