package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.task.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Byte keys sort, compared unsigned, in the order the index relies on, and decode back. */
class IndexKeysTest {

  private static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

  @Test
  void slotsSortByInstantThenId() {
    Random random = new Random(7);
    List<Instant> instants = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      instants.add(Instant.ofEpochSecond(random.nextInt(4_000_000) - 2_000_000,
          random.nextInt(1_000_000_000)));
    }
    instants.add(Instant.ofEpochSecond(-1, 999_999_999));
    instants.add(Instant.EPOCH);
    List<String> ids = List.of("a", "b", "a\u0000", "é", "😀", "\uffff");
    for (Instant x : instants) {
      for (Instant y : instants) {
        for (String a : ids) {
          for (String b : List.of("a", "😀")) {
            int expected = x.equals(y) ? Integer.signum(a.codePointAt(0) == b.codePointAt(0)
                ? Integer.compare(a.length(), b.length())
                : Integer.compare(a.codePointAt(0), b.codePointAt(0)))
                : Integer.signum(x.compareTo(y));
            assertThat(Integer.signum(UNSIGNED.compare(IndexKeys.slot(x, a), IndexKeys.slot(y, b))))
                .as("%s %s vs %s %s", x, a, y, b).isEqualTo(expected);
          }
        }
      }
    }
  }

  @Test
  void everySlotAtAnInstantLiesBeforeTheSlotsAfterIt() {
    Instant at = Instant.parse("2026-11-21T10:00:00.123456789Z");
    byte[] bound = IndexKeys.slotsAfter(at);
    assertThat(UNSIGNED.compare(IndexKeys.slot(at, "\uffff\uffff"), bound)).isNegative();
    assertThat(UNSIGNED.compare(IndexKeys.slot(at.plusNanos(1), ""), bound)).isZero();
    assertThat(IndexKeys.slotId(IndexKeys.slot(at, "order-7 ✓"))).isEqualTo("order-7 ✓");
  }

  @Test
  void groupsDecodeAndNamesWithNulStayApart() {
    byte[] member = IndexKeys.member("or\u0000der", "pack", TaskStatus.FAULT, "id-1");
    IndexKeys.Group g = IndexKeys.groupOf(member);
    assertThat(g).isEqualTo(new IndexKeys.Group("or\u0000der", "pack", TaskStatus.FAULT,
        IndexKeys.group("or\u0000der", "pack", TaskStatus.FAULT).length));
    assertThat(IndexKeys.idAt(member, g.end())).isEqualTo("id-1");
    byte[] plain = IndexKeys.group("or", "der", TaskStatus.RUNNABLE);
    assertThat(IndexKeys.startsWith(member, plain)).isFalse();
    assertThat(UNSIGNED.compare(IndexKeys.group("a", "z", TaskStatus.RUNNABLE),
        IndexKeys.group("ab", "a", TaskStatus.RUNNABLE))).as("a name sorts before longer ones")
        .isNegative();
  }

  @Test
  void aTasksHistoryKeysLieInItsRangeAndNoOtherTasksDo() {
    for (String id : List.of("a", "a\u0000", "a\u0000b", "ab", "")) {
      for (int place : new int[] {0, 1, 255, 65_536, Integer.MAX_VALUE}) {
        byte[] key = IndexKeys.history(id, place);
        assertThat(IndexKeys.historyChunk(key)).isEqualTo(place);
        for (String other : List.of("a", "a\u0000", "a\u0000b", "ab", "")) {
          boolean inside = UNSIGNED.compare(key, IndexKeys.historyOf(other)) >= 0
              && UNSIGNED.compare(key, IndexKeys.historyEnd(other)) < 0;
          assertThat(inside).as("%s/%d in range of %s", id, place, other)
              .isEqualTo(id.equals(other));
        }
      }
    }
  }
}
