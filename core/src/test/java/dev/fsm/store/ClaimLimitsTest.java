package dev.fsm.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClaimLimitsTest {

  private static final Instant T0 = Instant.parse("2026-11-25T00:00:00Z");

  private static Task task(String machine, String state) {
    return new Task(machine + "-" + state, machine, "v", state, TaskStatus.RUNNABLE, "{}", 0,
        List.of(), T0, T0, null, T0, null);
  }

  @Test
  void noneLimitsNothing() {
    ClaimLimits.Budget b = ClaimLimits.NONE.budget();
    for (int i = 0; i < 1000; i++) {
      assertThat(b.take(task("m", "s"))).isTrue();
    }
    assertThat(ClaimLimits.NONE.none()).isTrue();
    assertThat(ClaimLimits.NONE.anyFull()).isFalse();
  }

  @Test
  void aBudgetSpendsMachineAndStateRoomTogether() {
    ClaimLimits limits = new ClaimLimits(Map.of("m", 3), Map.of("m", Map.of("pay", 1)));
    assertThat(limits.none()).isFalse();
    assertThat(limits.anyFull()).isFalse();
    ClaimLimits.Budget b = limits.budget();
    assertThat(b.take(task("m", "pay"))).isTrue();
    assertThat(b.hasRoom("m", "pay")).isFalse();
    assertThat(b.take(task("m", "pay"))).isFalse();
    assertThat(b.take(task("m", "ship"))).isTrue();
    assertThat(b.take(task("m", "ship"))).isTrue();
    assertThat(b.hasRoom("m", "ship")).isFalse();
    assertThat(b.take(task("m", "ship"))).isFalse();
    assertThat(b.take(task("other", "pay"))).as("another machine's `pay`").isTrue();
    // A fresh budget starts from the limits again.
    assertThat(limits.budget().take(task("m", "pay"))).isTrue();
  }

  @Test
  void aFullGroupIsSaidToBeFull() {
    assertThat(new ClaimLimits(Map.of("m", 0), Map.of()).anyFull()).isTrue();
    assertThat(new ClaimLimits(Map.of(), Map.of("m", Map.of("s", 0))).anyFull()).isTrue();
    assertThat(new ClaimLimits(Map.of("m", 0), Map.of()).budget().take(task("m", "s")))
        .isFalse();
  }
}
