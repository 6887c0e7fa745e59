package dev.fsm.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.fsm.model.Machine;
import dev.fsm.store.TaskCount;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code --task} and {@code --counts} overlays, as they show in the DOT text. */
class OverlayTest {

  private static final Instant T0 = Instant.parse("2026-01-02T03:04:05Z");
  private static final Machine ORDER = Machines.order();

  @Test
  void aTaskPathHighlightsItsStatesAndEdgesAndCountsRepeats() {
    List<Transition> history = List.of(
        step("pay", "ok", "ship"),
        step("ship", "error", "ship_later"),
        step("ship_later", "ok", "ship"),
        step("ship", "error", "ship_later"),
        step("ship_later", "ok", "ship"),
        step("ship_later", "pause", "ship_later"),
        step("ship", "ok", "await_signature"));
    Task task = task("01JABCDEFGHJKMNPQRSTVWXYZ0", "await_signature", TaskStatus.RUNNABLE);
    Overlay.TaskPath path = Overlay.TaskPath.of(ORDER, task, history);
    assertThat(path.visited()).containsExactlyInAnyOrder("pay", "ship", "ship_later",
        "await_signature");
    assertThat(path.times("ship", "error")).isEqualTo(2);
    assertThat(path.times("ship_later", "pause")).isZero();

    String dot = DotWriter.write(Diagrams.of(ORDER, path, Direction.LR));
    // Runnable in a state that waits for a signal: shown as waiting.
    assertThat(dot).contains("label=\"order: task 01JABCDEFGHJKMNPQRSTVWXYZ0 (waiting in"
        + " await_signature)\"");
    assertThat(line(dot, "s3 [")).contains("color=\"#1a73e8\", penwidth=3.4")
        .contains("task …NPQRSTVWXYZ0: waiting");
    assertThat(line(dot, "s0 [")).contains("color=\"#1a73e8\", penwidth=2.4");
    assertThat(line(dot, "s4 [")).contains("color=\"#bdc1c6\"").contains("fontcolor=\"#5f6368\"");
    assertThat(line(dot, "s0 -> s1")).contains("label=\"ok\",").contains("#1a73e8");
    assertThat(line(dot, "s1 -> s2 [label=\"error")).contains("label=\"error ×2\"")
        .contains("color=\"#c5221f\", penwidth=2.4");
    assertThat(line(dot, "s2 -> s1")).contains("label=\"ok ×2\"");
    assertThat(line(dot, "s0 -> s5")).contains("color=\"#bdc1c6\"");
  }

  @Test
  void aTaskWithNoHistoryMarksOnlyItsState() {
    Task task = task("t1", "pay", TaskStatus.PAUSED);
    String dot = DotWriter.write(Diagrams.of(ORDER, Overlay.TaskPath.of(ORDER, task, List.of()),
        Direction.LR));
    assertThat(line(dot, "s0 [")).contains("task t1: paused").contains("penwidth=3.4");
    assertThat(line(dot, "s1 [")).contains("#bdc1c6");
  }

  @Test
  void countsLabelEveryStateByStatusAndShadeTheBusiest() {
    List<TaskCount> counts = List.of(
        new TaskCount("order", "pay", TaskStatus.RUNNABLE, 3),
        new TaskCount("order", "pay", TaskStatus.FAULT, 1),
        new TaskCount("order", "pay", TaskStatus.SLEEPING, 4),
        new TaskCount("order", "delivered", TaskStatus.COMPLETED, 2),
        new TaskCount("order", "gone_state", TaskStatus.PAUSED, 9),
        new TaskCount("order", "await_signature", TaskStatus.RUNNABLE, 5),
        new TaskCount("order", "await_signature", TaskStatus.PAUSED, 1),
        new TaskCount("other", "pay", TaskStatus.RUNNABLE, 50));
    Overlay.StateCounts overlay = Overlay.StateCounts.of(ORDER, counts);
    assertThat(overlay.max()).isEqualTo(8);
    assertThat(overlay.of(ORDER.state("await_signature").orElseThrow()))
        .containsExactly(entry(ShownStatus.WAITING, 5L), entry(ShownStatus.PAUSED, 1L));

    String dot = DotWriter.write(Diagrams.of(ORDER, overlay, Direction.LR));
    assertThat(dot).contains("label=\"order: 16 tasks by state\"");
    assertThat(line(dot, "s0 [")).contains("3 runnable, 4 sleeping").contains("1 fault")
        .contains("fillcolor=\"#f9ab00\"");
    assertThat(line(dot, "s3 [")).contains("5 waiting, 1 paused");
    assertThat(line(dot, "s4 [")).contains("2 completed").contains("fillcolor=\"#efd17b\"");
    assertThat(line(dot, "s1 [")).contains("fillcolor=\"#ffffff\"").doesNotContain("runnable");
  }

  private static Transition step(String from, String event, String to) {
    return new Transition(T0, from, event, to, 10, 1, "runner", "");
  }

  private static Task task(String id, String state, TaskStatus status) {
    return new Task(id, "order", "v1", state, status, "{}", 0, List.of(), T0, T0, null, null,
        null);
  }

  private static String line(String dot, String start) {
    List<String> found = Arrays.stream(dot.split("\n")).map(String::strip)
        .filter(l -> l.startsWith(start)).toList();
    assertThat(found).as("one line starting %s in%n%s", start, dot).hasSize(1);
    return found.get(0);
  }
}
