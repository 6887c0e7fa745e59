package dev.fsm.cli.terminal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class TableTest {

  @Test
  void alignsColumnsWithoutTrailingSpaces() {
    Table t = new Table("ID", "STATUS", "NOTE").add("a1", "runnable", "").add("b", "paused", "x");
    assertThat(t.lines(OptionalInt.empty())).containsExactly(
        "ID  STATUS    NOTE",
        "a1  runnable",
        "b   paused    x");
  }

  @Test
  void cutsTheWidestColumnWithAnEllipsisToFitTheWidth() {
    Table t = new Table("ID", "REASON").add("a1", "a very long reason that does not fit");
    assertThat(t.lines(OptionalInt.of(20))).containsExactly(
        "ID  REASON",
        "a1  a very long rea…");
    assertThat(t.lines(OptionalInt.of(20)))
        .allSatisfy(line -> assertThat(line).hasSizeLessThanOrEqualTo(20));
  }

  @Test
  void noWidthMeansNoCutting() {
    String reason = "x".repeat(300);
    assertThat(new Table("R").add(reason).lines(OptionalInt.empty())).contains(reason);
  }

  @Test
  void paintsCellsAfterAlignmentSoColoursDoNotSkewIt() {
    Table t = new Table("S", "N").paint(0, s -> "<" + s + ">").add("ok", 1).add("fault", 2);
    assertThat(t.lines(OptionalInt.empty())).containsExactly(
        "S      N",
        "<ok>     1",
        "<fault>  2");
  }

  @Test
  void lineBreaksAndNullsInCellsStayOnOneLine() {
    Table t = new Table("A", "B").add("two\nlines", null);
    assertThat(t.lines(OptionalInt.empty())).containsExactly("A          B", "two lines");
  }

  @Test
  void aRowMustHaveOneCellPerColumn() {
    assertThatThrownBy(() -> new Table("A", "B").add("only one"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void fitKeepsShortCells() {
    assertThat(Table.fit("abc", 3)).isEqualTo("abc");
    assertThat(Table.fit("abcd", 3)).isEqualTo("ab…");
  }

  @Test
  void wideAndCombiningCharactersAreCountedInScreenColumns() {
    // 注文 is two wide characters, four columns; "cafe" with a combining accent is four.
    Table t = new Table("NAME", "N").add("注文", 1).add("cafe\u0301", 2).add("abc", 3);
    assertThat(t.lines(OptionalInt.empty())).containsExactly(
        "NAME  N",
        "注文  1",
        "cafe\u0301  2",
        "abc   3");
  }

  @Test
  void cuttingNeverSplitsAWideCharacterAndStillFitsTheWidth() {
    assertThat(Table.fit("注文注文", 5)).isEqualTo("注文…");
    assertThat(Table.fit("注文注文", 4)).isEqualTo("注…");
    assertThat(Table.fit("cafe\u0301s", 5)).isEqualTo("cafe\u0301s");
    assertThat(Table.fit("cafe\u0301s!", 5)).isEqualTo("cafe\u0301…");
    Table t = new Table("ID", "REASON", "BY").add("a1", "支払いの確認待ちです、明日もう一度", "ops");
    assertThat(t.lines(OptionalInt.of(30))).containsExactly(
        "ID  REASON" + " ".repeat(17) + "BY",
        "a1  支払いの確認待ちです…  ops");
    assertThat(t.lines(OptionalInt.of(30))).allSatisfy(line ->
        assertThat(Columns.width(line)).isLessThanOrEqualTo(30));
  }
}
