package dev.fsm.diagnostic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.action.ActionOutcome;
import org.junit.jupiter.api.Test;

/** An action's error text cannot drive the terminal it is shown on. */
class PrintableTest {

  @Test
  void escapesThatMoveTheCursorClearTheScreenOrSetTheTitleAreWrittenOut() {
    String stderr = "boom \u001b[31mRED\u001b[0m \u001b]0;TITLE\u0007 \u001b[2J done\rX \u009b1m";
    assertThat(Printable.of(stderr)).isEqualTo("boom \\u001b[31mRED\\u001b[0m"
        + " \\u001b]0;TITLE\\u0007 \\u001b[2J done\\u000dX \\u009b1m");
    assertThat(new ActionOutcome.Error(stderr).message()).isEqualTo(Printable.of(stderr));
  }

  @Test
  void linesTabsAndTextInAnyScriptStayAsTheyAre() {
    String text = "line one\n\tline two: Zoë ✓ 日本 🚚\r\nline three";
    assertThat(Printable.of(text)).isEqualTo("line one\n\tline two: Zoë ✓ 日本 🚚\nline three");
    assertThat(Printable.of("plain")).isSameAs("plain");
    assertThat(Printable.of("a\u202eb")).isEqualTo("a\\u202eb");
  }
}
