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
      sb.append(row > 0 ? ", " : ": ").append("column ").append(quote(column));
    }
    sb.append(": ").append(problem.replace('\n', ' ').replace('\r', ' '));
    return sb.toString();
  }

  /** Longest piece of a file's content a message quotes. */
  private static final int QUOTE_MAX = 40;

  /**
   * A cell or a column name of the input, quoted for a message: at most {@value #QUOTE_MAX} characters (longer
   * ones are cut, with their length said), control characters shown as '?', so that a message never echoes
   * much of a file (say, a file that was not meant to be read).
   */
  public static String quote(String cell) {
    String s = String.valueOf(cell);
    String shown = s.length() <= QUOTE_MAX ? s : s.substring(0, QUOTE_MAX - 3) + "...";
    StringBuilder b = new StringBuilder(shown.length() + 2).append('\'');
    shown.codePoints().forEach(c -> b.appendCodePoint(Character.isISOControl(c) ? '?' : c));
    b.append('\'');
    if (s.length() > QUOTE_MAX) {
      b.append(" (").append(s.length()).append(" characters)");
    }
    return b.toString();
  }

  /**
   * A header's column names for a message: each {@link #quote quoted}, at most 12 of them; a header of one
   * column is not quoted at all (it is usually a file that is not comma-separated, and its one "name" is its
   * whole first line).
   */
  public static String columns(String[] header) {
    if (header.length == 1) {
      return "the header has a single column (is the file comma-separated with a header row?)";
    }
    StringBuilder b = new StringBuilder("columns are ");
    for (int j = 0; j < Math.min(header.length, 12); j++) {
      b.append(j == 0 ? "" : ", ").append(quote(header[j]));
    }
    if (header.length > 12) {
      b.append(" and ").append(header.length - 12).append(" more");
    }
    return b.toString();
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
