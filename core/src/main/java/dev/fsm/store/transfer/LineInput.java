package dev.fsm.store.transfer;

import java.io.IOException;
import java.io.Reader;

/**
 * Lines of text, each at most a limit long, so a file with no line breaks (or {@code /dev/zero})
 * is refused instead of filling memory. A line ends at {@code \n}; a {@code \r} before it is
 * dropped.
 */
final class LineInput {

  /** A line longer than the limit. */
  static final class TooLong extends IOException {
    TooLong() {
      super("line too long");
    }
  }

  private final Reader in;
  private final int limit;
  private final char[] buffer = new char[1 << 16];
  private int at;
  private int end;

  LineInput(Reader in, int limit) {
    this.in = in;
    this.limit = limit;
  }

  /** The next line without its end, or null at the end of the input. */
  String next() throws IOException {
    StringBuilder line = null;
    while (true) {
      if (at == end) {
        end = in.read(buffer);
        at = 0;
        if (end < 0) {
          end = 0;
          return line == null ? null : trim(line);
        }
      }
      int start = at;
      while (at < end && buffer[at] != '\n') {
        at++;
      }
      if (line == null) {
        line = new StringBuilder(Math.max(16, at - start));
      }
      if (line.length() + (at - start) > limit) {
        throw new TooLong();
      }
      line.append(buffer, start, at - start);
      if (at < end) {
        at++;
        return trim(line);
      }
    }
  }

  private static String trim(StringBuilder line) {
    int n = line.length();
    return n > 0 && line.charAt(n - 1) == '\r' ? line.substring(0, n - 1) : line.toString();
  }
}
