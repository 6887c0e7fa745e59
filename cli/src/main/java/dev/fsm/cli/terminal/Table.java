package dev.fsm.cli.terminal;

import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.UnaryOperator;

/**
 * A text table: columns aligned, long cells cut with an ellipsis so rows fit the terminal's width
 * when it is known, colours applied after alignment so escape codes never skew it. Widths are
 * screen columns, so wide (CJK) and combining characters keep the columns straight.
 */
public final class Table {

  private static final int GAP = 2;
  private static final int MIN_WIDTH = 4;
  private static final String ELLIPSIS =
      Charset.defaultCharset().newEncoder().canEncode('…') ? "…" : "~";

  private final String[] headers;
  private final UnaryOperator<String>[] painters;
  private final List<String[]> rows = new ArrayList<>();

  /** A table with these column headers. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public Table(String... headers) {
    this.headers = headers.clone();
    this.painters = new UnaryOperator[headers.length];
    Arrays.fill(painters, UnaryOperator.identity());
  }

  /** Colours the cells of one column (not its header) with {@code painter}. */
  public Table paint(int column, UnaryOperator<String> painter) {
    painters[column] = painter;
    return this;
  }

  /** Adds a row; null cells print as empty, line breaks as spaces. */
  public Table add(Object... cells) {
    if (cells.length != headers.length) {
      throw new IllegalArgumentException(cells.length + " cells for " + headers.length
          + " columns");
    }
    String[] row = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      row[i] = cells[i] == null ? "" : cells[i].toString().replaceAll("[\\r\\n\\t]+", " ");
    }
    rows.add(row);
    return this;
  }

  /** True when no row was added. */
  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** Prints the header and rows, fitting {@code width} columns when given. */
  public void print(PrintWriter out, OptionalInt width) {
    lines(width).forEach(out::println);
  }

  /** The header and rows as lines, fitting {@code width} columns when given. */
  public List<String> lines(OptionalInt width) {
    int[] widths = widths(width);
    List<String> lines = new ArrayList<>();
    lines.add(line(headers, widths, false));
    for (String[] row : rows) {
      lines.add(line(row, widths, true));
    }
    return lines;
  }

  /** Column widths: each its widest cell, then the widest cut down until the row fits. */
  int[] widths(OptionalInt width) {
    int[] widths = new int[headers.length];
    for (int i = 0; i < headers.length; i++) {
      widths[i] = Columns.width(headers[i]);
      for (String[] row : rows) {
        widths[i] = Math.max(widths[i], Columns.width(row[i]));
      }
    }
    if (width.isEmpty()) {
      return widths;
    }
    int total = Arrays.stream(widths).sum() + GAP * (widths.length - 1);
    while (total > width.getAsInt()) {
      int widest = 0;
      for (int i = 1; i < widths.length; i++) {
        if (widths[i] > widths[widest]) {
          widest = i;
        }
      }
      if (widths[widest] <= MIN_WIDTH) {
        break;
      }
      widths[widest]--;
      total--;
    }
    return widths;
  }

  private String line(String[] cells, int[] widths, boolean paint) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      String cell = fit(cells[i], widths[i]);
      boolean last = i == cells.length - 1;
      line.append(paint ? painters[i].apply(cell) : cell);
      if (!last) {
        line.append(" ".repeat(widths[i] - Columns.width(cell) + GAP));
      }
    }
    return line.toString().stripTrailing();
  }

  /** The cell, cut to {@code width} columns with an ellipsis when wider. */
  static String fit(String cell, int width) {
    if (Columns.width(cell) <= width) {
      return cell;
    }
    return Columns.start(cell, Math.max(0, width - ELLIPSIS.length())) + ELLIPSIS;
  }
}
