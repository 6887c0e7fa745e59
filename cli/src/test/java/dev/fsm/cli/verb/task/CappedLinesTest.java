package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CappedLinesTest {

  private static List<CappedLines.Line> lines(String text, int max) throws IOException {
    List<CappedLines.Line> lines = new ArrayList<>();
    try (CappedLines in = new CappedLines(new StringReader(text), max)) {
      for (CappedLines.Line l = in.next(); l != null; l = in.next()) {
        lines.add(l);
      }
    }
    return lines;
  }

  @Test
  void linesAreNumberedWithoutTheirBreaks() throws IOException {
    assertThat(lines("a\r\n\nbc\nd", 10)).containsExactly(new CappedLines.Line(1, "a"),
        new CappedLines.Line(2, ""), new CappedLines.Line(3, "bc"), new CappedLines.Line(4, "d"));
    assertThat(lines("", 10)).isEmpty();
    assertThat(lines("x\n", 10)).containsExactly(new CappedLines.Line(1, "x"));
  }

  @Test
  void aLineOverTheCapIsReportedAndReadingEndsThere() throws IOException {
    assertThat(lines("12345\n" + "z".repeat(100_000) + "\nok", 5)).containsExactly(
        new CappedLines.Line(1, "12345"), new CappedLines.Line(2, null));
    assertThat(lines("12345\n123456\nok", 5)).containsExactly(
        new CappedLines.Line(1, "12345"), new CappedLines.Line(2, null));
    assertThat(lines("12345\r\n", 5)).containsExactly(new CappedLines.Line(1, "12345"));
  }

  @Test
  void anEndlessLineEndsAtTheCap() throws IOException {
    Reader endless = new Reader() {
      @Override
      public int read(char[] into, int off, int len) {
        Arrays.fill(into, off, off + len, '\0');
        return len;
      }

      @Override
      public void close() {}
    };
    try (CappedLines in = new CappedLines(endless, 1000)) {
      assertThat(in.next()).isEqualTo(new CappedLines.Line(1, null));
      assertThat(in.next()).isNull();
    }
  }
}
