package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class LimitTest {

  private final Limit limit = new Limit();

  @Test
  void readsWholeNumbersOfAtLeastOne() {
    assertThat(limit.convert("1")).isEqualTo(1);
    assertThat(limit.convert(" 050 ")).isEqualTo(50);
    assertThat(limit.convert("+7")).isEqualTo(7);
    assertThat(limit.convert("2147483647")).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void aNumberPastAnIntAsksForEverything() {
    assertThat(limit.convert("2147483648")).isEqualTo(Integer.MAX_VALUE);
    assertThat(limit.convert("99999999999")).isEqualTo(Integer.MAX_VALUE);
    assertThat(limit.convert("1" + "0".repeat(40))).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void refusesWhatIsNoCountOfTasks() {
    assertThatThrownBy(() -> limit.convert("0")).isInstanceOf(TypeConversionException.class)
        .hasMessage("`0` is too few; give at least 1");
    assertThatThrownBy(() -> limit.convert("-5")).hasMessage("`-5` is too few; give at least 1");
    assertThatThrownBy(() -> limit.convert("-0")).hasMessageContaining("too few");
    assertThatThrownBy(() -> limit.convert("1.5")).hasMessageContaining("not a whole number");
    assertThatThrownBy(() -> limit.convert("")).hasMessageContaining("not a whole number");
  }
}
