package dev.fsm.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command table rendered from each command's rules matches the SPEC's text exactly. */
class CommandTableTest {

  /** SPEC.md section 3, verbatim. */
  private static final String SPEC = """
      | from \\ command | run | pause | sleep | kill | error | complete | checkpoint | release \
      | redrive |
      |---|---|---|---|---|---|---|---|---|---|
      | runnable | runnable | paused | sleeping | killed | fault | completed | runnable | runnable \
      | — |
      | sleeping | runnable | paused | sleeping | killed | fault | — | sleeping | sleeping | — |
      | paused   | runnable | paused | sleeping | killed | — | — | paused | paused | — |
      | fault    | — | — | sleeping | — | failed | — | — | — | — |
      | failed   | — | — | — | — | — | — | — | — | runnable |
      | killed   | — | — | — | — | — | — | — | — | runnable |
      | completed | — | — | — | — | — | — | — | — | — |
      """;

  private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

  /** The table as the SPEC writes it, from the commands' rules alone. */
  private static String rendered() {
    StringBuilder out = new StringBuilder("| from \\ command |");
    StringBuilder rule = new StringBuilder("|---|");
    for (Command c : Command.values()) {
      out.append(' ').append(c.word()).append(" |");
      rule.append("---|");
    }
    out.append('\n').append(rule).append('\n');
    for (TaskStatus from : CommandTable.ROWS) {
      out.append("| ").append(String.format("%-8s", from.word())).append(" |");
      for (Command c : Command.values()) {
        out.append(' ').append(c.next(from).map(TaskStatus::word).orElse("—")).append(" |");
      }
      out.append('\n');
    }
    return out.toString();
  }

  @Test
  void theTableRenderedFromTheRulesIsTheSpecs() {
    assertThat(rendered()).isEqualTo(SPEC);
    assertThat(CommandTable.ROWS).containsExactlyInAnyOrder(TaskStatus.values());
  }

  @Test
  void everyCommandAgainstEveryStatusIsAppliedOrRefusedAsTheTableSays() {
    int applied = 0;
    int refused = 0;
    for (TaskStatus from : TaskStatus.values()) {
      for (Command command : Command.values()) {
        Task task = new Task("t1", "order", "v1", "ship", from, "{}", 1, List.of(),
            NOW, NOW, NOW, NOW, null);
        Commands.Request request = new Commands.Request(NOW.plusSeconds(60), "", "ann");
        String pair = from.word() + " + " + command.word();
        if (command.next(from).isPresent()) {
          assertThat(Commands.apply(task, command, request, NOW).next().status()).as(pair)
              .isEqualTo(command.next(from).get());
          assertThat(CommandTable.allowed(from)).as(pair).contains(command);
          applied++;
        } else {
          assertThatThrownBy(() -> Commands.apply(task, command, request, NOW)).as(pair)
              .isInstanceOf(FsmException.class)
              .hasMessage("task `t1`: " + CommandTable.refusal(from, command))
              .hasMessageContaining("task is " + from.word());
          assertThat(CommandTable.allowed(from)).as(pair).doesNotContain(command);
          String message = CommandTable.refusal(from, command);
          for (Command ok : CommandTable.allowed(from)) {
            assertThat(message).as(pair).contains(ok.word());
          }
          refused++;
        }
      }
    }
    assertThat(applied + refused).isEqualTo(7 * 9);
    assertThat(applied).isEqualTo(25);
  }

  @Test
  void refusalsNameTheStatusAndWhatIsAllowed() {
    assertThat(CommandTable.refusal(TaskStatus.PAUSED, Command.ERROR)).isEqualTo(
        "`error` is not allowed while the task is paused; allowed now: run, pause, sleep, kill,"
            + " checkpoint, release");
    assertThat(CommandTable.refusal(TaskStatus.FAULT, Command.RUN)).isEqualTo(
        "`run` is not allowed while the task is fault; allowed now: sleep, error");
    assertThat(CommandTable.refusal(TaskStatus.KILLED, Command.RUN)).isEqualTo(
        "`run` is not allowed while the task is killed, which is final; allowed now: redrive");
    assertThat(CommandTable.refusal(TaskStatus.COMPLETED, Command.REDRIVE)).isEqualTo(
        "`redrive` is not allowed: the task is completed, which is final; no command changes"
            + " it");
    assertThat(CommandTable.refusal(TaskStatus.RUNNABLE, Command.REDRIVE)).isEqualTo(
        "`redrive` is not allowed while the task is runnable; allowed now: run, pause, sleep,"
            + " kill, error, complete, checkpoint, release");
    // A runnable task waiting for a signal is shown as waiting everywhere (SPEC section 3).
    assertThat(CommandTable.refusal(TaskStatus.RUNNABLE, "redrive", "waiting")).isEqualTo(
        "`redrive` is not allowed while the task is waiting (runnable, for commands); allowed"
            + " now: run, pause, sleep, kill, error, complete, checkpoint, release");
  }

  @Test
  void onlyRedriveChangesAnEndedTaskAndNothingChangesACompletedOne() {
    for (TaskStatus s : TaskStatus.values()) {
      List<Command> allowed = CommandTable.allowed(s);
      if (s == TaskStatus.COMPLETED) {
        assertThat(allowed).isEmpty();
      } else if (s.isTerminal()) {
        assertThat(allowed).as(s.word()).containsExactly(Command.REDRIVE);
      } else {
        assertThat(allowed).as(s.word()).isNotEmpty().doesNotContain(Command.REDRIVE);
      }
    }
  }

  @Test
  void theEffectsAreTheSpecs() {
    List<String> stopping = new ArrayList<>();
    List<String> waking = new ArrayList<>();
    List<String> delivered = new ArrayList<>();
    for (Command c : Command.values()) {
      if (c.stopsRunningAction()) {
        stopping.add(c.word());
      }
      if (c.wakesRunner()) {
        waking.add(c.word());
      }
      if (c.deliveredToAction()) {
        delivered.add(c.word());
      }
    }
    // SPEC section 3: these stop a running action at once; checkpoint is delivered to it.
    assertThat(stopping).containsExactly("pause", "sleep", "kill", "error", "complete",
        "release");
    assertThat(delivered).containsExactly("checkpoint");
    // The commands after which the task may be claimable at once.
    assertThat(waking).containsExactly("run", "sleep", "error", "release", "redrive");
    assertThat(Command.values()).filteredOn(Command::needsUntil).containsExactly(Command.SLEEP);
    assertThat(Command.values()).filteredOn(Command::reasonIsError)
        .containsExactly(Command.ERROR);
    assertThat(Command.values()).filteredOn(Command::takesTo).containsExactly(Command.REDRIVE);
  }

  @Test
  void wordsAndAliasesParseBack() {
    for (Command c : Command.values()) {
      assertThat(Command.parse(c.word())).contains(c);
    }
    for (TaskStatus s : TaskStatus.values()) {
      assertThat(TaskStatus.parse(s.word())).contains(s);
    }
    assertThat(Command.parse("resume")).contains(Command.RUN);
    assertThat(Command.parse("Resume")).isEmpty();
    assertThat(Command.words()).containsExactly("run", "resume", "pause", "sleep", "kill",
        "error", "complete", "checkpoint", "release", "redrive");
  }
}
