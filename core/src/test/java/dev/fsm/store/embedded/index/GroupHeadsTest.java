package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.ClaimLimits;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Heads of the due queue by group: oldest due first across groups, a full group passed over, and
 * at most a window of slots per group on the heap, refilled from the queue as claims use it.
 */
class GroupHeadsTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant LATER = T0.plusSeconds(3600);

  private final NavigableSet<byte[]> due = new TreeSet<>(Arrays::compareUnsigned);
  private final Map<String, Task> tasks = new HashMap<>();

  private Task task(String id, String machine, int dueSecond) {
    Task t = new Task(id, machine, "v1", "a", TaskStatus.RUNNABLE, "{}", 0, List.of(), T0, T0, T0,
        T0.plusSeconds(dueSecond), null);
    tasks.put(id, t);
    return t;
  }

  private void queue(GroupHeads heads, Task t) {
    byte[] slot = IndexKeys.slot(t.due(), t.id());
    due.add(slot);
    if (heads != null) {
      heads.add(t, slot);
    }
  }

  /** Claims up to max, taking what it claims out of the queue as a lease does. */
  private List<String> claim(GroupHeads heads, int max, ClaimLimits limits) {
    List<Task> found = heads.claimable(max, LATER, limits.budget(), t -> true, tasks::get);
    List<String> ids = new ArrayList<>();
    for (Task t : found) {
      byte[] slot = IndexKeys.slot(t.due(), t.id());
      due.remove(slot);
      heads.remove(t, slot);
      ids.add(t.id());
    }
    return ids;
  }

  @Test
  void aLargeGroupIsClaimedInDueOrderWithOnlyAWindowOfItOnTheHeap() {
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      String id = String.format("big-%03d", i);
      queue(null, task(id, "big", 100 + i));
      expected.add(id);
    }
    GroupHeads heads = GroupHeads.of(due, tasks::get, 4);
    assertThat(heads.kept()).isEqualTo(4);

    List<String> claimed = new ArrayList<>();
    while (claimed.size() < 50) {
      List<String> batch = claim(heads, 3, ClaimLimits.NONE);
      assertThat(batch).isNotEmpty();
      claimed.addAll(batch);
      assertThat(heads.kept()).isLessThanOrEqualTo(4);
    }
    assertThat(claimed).isEqualTo(expected);
    assertThat(claim(heads, 3, ClaimLimits.NONE)).isEmpty();
    assertThat(heads.kept()).isZero();
  }

  @Test
  void tasksQueuedPastTheHorizonOrBeforeItAreBothClaimedInOrder() {
    for (int i = 0; i < 10; i++) {
      queue(null, task("m-" + (100 + i * 10), "m", 100 + i * 10));
    }
    GroupHeads heads = GroupHeads.of(due, tasks::get, 3);
    queue(heads, task("m-105", "m", 105));
    queue(heads, task("m-195", "m", 195));
    assertThat(heads.kept()).isEqualTo(3);

    List<String> claimed = new ArrayList<>();
    for (List<String> b = claim(heads, 2, ClaimLimits.NONE); !b.isEmpty();
        b = claim(heads, 2, ClaimLimits.NONE)) {
      claimed.addAll(b);
    }
    assertThat(claimed).containsExactly("m-100", "m-105", "m-110", "m-120", "m-130", "m-140",
        "m-150", "m-160", "m-170", "m-180", "m-190", "m-195");
  }

  @Test
  void groupsMergeOldestFirstAndAFullMachineIsPassedOverWithoutReadingIt() {
    for (int i = 0; i < 20; i++) {
      queue(null, task("capped-" + (100 + i), "capped", i));
    }
    queue(null, task("free-1", "free", 50));
    queue(null, task("free-2", "free", 60));
    GroupHeads heads = GroupHeads.of(due, tasks::get, 5);

    assertThat(claim(heads, 3, ClaimLimits.NONE))
        .containsExactly("capped-100", "capped-101", "capped-102");
    ClaimLimits full = new ClaimLimits(Map.of("capped", 0), Map.of());
    assertThat(heads.first(full.budget(), tasks::get)).isEqualTo(T0.plusSeconds(50));
    assertThat(claim(heads, 3, full)).containsExactly("free-1", "free-2");
    assertThat(heads.first(full.budget(), tasks::get)).isNull();
    assertThat(heads.first(ClaimLimits.NONE.budget(), tasks::get)).isEqualTo(T0.plusSeconds(3));
  }
}
