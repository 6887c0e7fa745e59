package dev.fsm.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every status against every command, checked against the SPEC's table copied as text. */
class CommandTableTest {

  /** SPEC.md section 3, verbatim but for the pipes at the ends. */
  private static final String SPEC = """
      from \\ command | run | pause | sleep | kill | error | complete | checkpoint | release
      runnable | runnable | paused | sleeping | killed | fault | completed | runnable | runnable
      sleeping | runnable | paused | sleeping | killed | fault | — | sleeping | sleeping
      paused   | runnable | paused | sleeping | killed | — | — | paused | paused
      fault    | — | — | sleeping | — | failed | — | — | —
      """;

  @Test
  void everyStatusAgainstEveryCommandFollowsTheSpec() {
    Map<String, String> expected = new HashMap<>();
    String[] lines = SPEC.strip().split("\n");
    String[] commands = lines[0].split("\\|");
    for (int i = 1; i < lines.length; i++) {
      String[] cells = lines[i].split("\\|");
      for (int c = 1; c < cells.length; c++) {
        expected.put(cells[0].strip() + "/" + commands[c].strip(), cells[c].strip());
      }
    }
    int checked = 0;
    for (TaskStatus from : TaskStatus.values()) {
      for (Command command : Command.values()) {
        String want = expected.getOrDefault(from.word() + "/" + command.word(), "—");
        String got = CommandTable.next(from, command).map(TaskStatus::word).orElse("—");
        assertThat(got).as(from.word() + " + " + command.word()).isEqualTo(want);
        checked++;
      }
    }
    assertThat(checked).isEqualTo(7 * 8);
  }

  @Test
  void terminalStatusesAcceptNothing() {
    for (TaskStatus s : TaskStatus.values()) {
      assertThat(CommandTable.allowed(s).isEmpty()).as(s.word()).isEqualTo(s.isTerminal());
    }
  }

  @Test
  void refusalsNameTheStatusAndWhatIsAllowed() {
    assertThat(CommandTable.refusal(TaskStatus.PAUSED, Command.ERROR)).isEqualTo(
        "`error` is not allowed while the task is paused; allowed now: run, pause, sleep, kill,"
            + " checkpoint, release");
    assertThat(CommandTable.refusal(TaskStatus.FAULT, Command.RUN)).isEqualTo(
        "`run` is not allowed while the task is fault; allowed now: sleep, error");
    assertThat(CommandTable.refusal(TaskStatus.KILLED, Command.RUN)).isEqualTo(
        "`run` is not allowed: the task is killed, which is final; no command changes it");
  }

  @Test
  void wordsParseBack() {
    for (Command c : Command.values()) {
      assertThat(Command.parse(c.word())).contains(c);
    }
    for (TaskStatus s : TaskStatus.values()) {
      assertThat(TaskStatus.parse(s.word())).contains(s);
    }
    assertThat(Command.parse("resume")).isEmpty();
    assertThat(Command.PAUSE.stopsRunningAction()).isTrue();
    assertThat(Command.CHECKPOINT.stopsRunningAction()).isFalse();
    assertThat(Command.COMPLETE.stopsRunningAction()).isTrue();
    assertThat(Command.RUN.stopsRunningAction()).isFalse();
  }
}
