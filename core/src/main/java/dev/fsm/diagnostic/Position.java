package dev.fsm.diagnostic;

/** A place in a file, 1-based like editors show it. */
public record Position(int line, int column) implements Comparable<Position> {

  /** The start of a file. */
  public static final Position START = new Position(1, 1);

  @Override
  public int compareTo(Position other) {
    int byLine = Integer.compare(line, other.line);
    return byLine != 0 ? byLine : Integer.compare(column, other.column);
  }
}
