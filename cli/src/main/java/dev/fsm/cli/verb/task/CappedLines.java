package dev.fsm.cli.verb.task;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;

/**
 * Reads a text's lines with a cap on each line's length, so that one endless line (a file such as
 * {@code /dev/zero}, or a file with no newlines) cannot exhaust memory or time. A line over the
 * cap is reported as soon as the cap is passed, and the reader ends there: the rest of an endless
 * line could never be skipped.
 */
final class CappedLines implements Closeable {

  /** A line and its number from 1; {@code text} is null when the line was over the cap. */
  record Line(long number, String text) {
    boolean tooLong() {
      return text == null;
    }
  }

  private final Reader in;
  private final int maxChars;
  private final char[] buffer = new char[8192];
  private int pos;
  private int end;
  private long number;
  private boolean ended;

  CappedLines(Reader in, int maxChars) {
    this.in = in;
    this.maxChars = maxChars;
  }

  /** The next line without its line break, or null at the end of the text (or after a line
   * that was too long). */
  Line next() throws IOException {
    if (ended) {
      return null;
    }
    StringBuilder line = new StringBuilder();
    boolean any = false;
    while (true) {
      if (pos == end) {
        end = in.read(buffer);
        pos = 0;
        if (end <= 0) {
          end = 0;
          ended = true;
          return any ? line(line) : null;
        }
      }
      any = true;
      int from = pos;
      while (pos < end && buffer[pos] != '\n') {
        pos++;
      }
      line.append(buffer, from, pos - from);
      // One more than the cap leaves room for a trailing \r.
      if (line.length() > maxChars + 1) {
        ended = true;
        return new Line(++number, null);
      }
      if (pos < end) {
        pos++;
        return line(line);
      }
    }
  }

  private Line line(StringBuilder text) {
    number++;
    if (!text.isEmpty() && text.charAt(text.length() - 1) == '\r') {
      text.setLength(text.length() - 1);
    }
    if (text.length() > maxChars) {
      ended = true;
      return new Line(number, null);
    }
    return new Line(number, text.toString());
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
