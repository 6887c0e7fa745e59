package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.store.embedded.event.StoreEventCodec;
import dev.fsm.task.Pausing;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.mapdb.DBException;

/** Index values round-trip, are deflated only when that is shorter, and refuse damage. */
class TaskValuesTest {

  private static final Instant T = Instant.parse("2026-11-25T10:00:00.123456789Z");

  private static final String ID = "01M8925VGKVD9PHN70CMZWBPAH";
  private static final byte[] KEY = IndexKeys.id(ID);

  private static Task task(String context) {
    return new Task(ID, "order", "0a1b2c3d4e5f", "ship",
        TaskStatus.RUNNABLE, context, 2, List.of(new TaskError(T, "carrier: timeout ✗")), T,
        T.plusMillis(1), null, T.plusSeconds(60), null, new Pausing(T, "ann", "audit"));
  }

  private static final String PAD = "{\"pad\": \"" + "x".repeat(190) + "\", \"n\": 12345}";
  private static final String ORDER = "{\"order\":\"ord_qiuduwbwxf00\",\"customer\":{\"id\":"
      + "\"cus_49801043\",\"name\":\"Omar Silva\",\"email\":\"omar.silva955@example.com\"},"
      + "\"amount\":2927.23,\"currency\":\"EUR\",\"items\":3,\"city\":\"Lisbon\","
      + "\"placed\":\"2026-04-23T01:27:47.789Z\",\"n\":0}";

  @Test
  void tasksRoundTripWhetherDeflatedOrNot() {
    Random random = new Random(21);
    byte[] noise = new byte[300];
    random.nextBytes(noise);
    String incompressible = "{\"k\":\"" + HexFormat.of().formatHex(noise) + "\"}";
    for (String context : List.of("{}", PAD, ORDER, incompressible, "{\"z\":\"Zoë ✓\"}",
        "{\"big\":\"" + "ab".repeat(200_000) + "\"}")) {
      Task t = task(context);
      byte[] value = TaskValues.encode(t);
      assertThat(TaskValues.decode(KEY, value)).isEqualTo(t);
      // The id is the key's, so even a value left plain is shorter than the task's encoding.
      assertThat(value.length).isLessThanOrEqualTo(StoreEventCodec.encodeTask(t).length
          - ID.length());
    }
  }

  @Test
  void contextsThatCompressAreStoredDeflatedAndOthersPlain() {
    // The x's are most of the 210-byte context; an order's fields are partly in the dictionary.
    byte[] plain = StoreEventCodec.encodeTask(task(PAD));
    byte[] value = TaskValues.encode(task(PAD));
    assertThat(value[0]).isZero();
    assertThat(plain.length - value.length).isGreaterThan(150);
    byte[] order = StoreEventCodec.encodeTask(task(ORDER));
    assertThat(order.length - TaskValues.encode(task(ORDER)).length).isGreaterThan(60);

    String short63 = "{\"s\":\"" + "y".repeat(TaskValues.MIN_DEFLATED - 9) + "\"}";
    for (String small : List.of("{}", "{\"n\":12345}", short63)) {
      byte[] tiny = StoreEventCodec.encodeTask(task(small));
      assertThat(TaskValues.encode(task(small))).as(small).hasSize(tiny.length - ID.length());
      assertThat(new TaskValues().encodeRemembering(task(small))).as(small)
          .hasSize(tiny.length - ID.length());
    }
    assertThat(TaskValues.encode(task(PAD))).isEqualTo(value);
  }

  @Test
  void aRememberedContextGivesTheSameBytesAsAFreshOne() {
    TaskValues values = new TaskValues();
    String big = "{\"big\":\"" + "ab".repeat(5_000) + "\"}";
    for (int round = 0; round < 2; round++) {
      for (String context : List.of(PAD, ORDER, "{}", big)) {
        Task t = task(context);
        byte[] value = values.encodeRemembering(t);
        assertThat(value).isEqualTo(TaskValues.encode(t));
        assertThat(TaskValues.decode(KEY, value)).isEqualTo(t);
      }
    }
    for (int i = 0; i < TaskValues.REMEMBERED + 10; i++) {
      Task t = task("{\"n\":" + i + ",\"pad\":\"" + "y".repeat(100) + "\"}");
      assertThat(TaskValues.decode(KEY, values.encodeRemembering(t))).isEqualTo(t);
    }
  }

  @Test
  void aValueHoldingAnIdIsRefused() {
    byte[] withId = StoreEventCodec.encodeTask(task("{}"));
    assertThatThrownBy(() -> TaskValues.decode(KEY, withId))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holds an id");
  }

  @Test
  void damagedValuesAreRefusedWithAReasonNeverACrash() {
    byte[] value = TaskValues.encode(task(ORDER));
    assertThat(value[0]).isZero();
    Random random = new Random(7);
    for (int cut = 0; cut < value.length; cut++) {
      assertRefusedOrSame(Arrays.copyOf(value, cut));
    }
    for (int i = 0; i < 2_000; i++) {
      byte[] damaged = value.clone();
      int at = 1 + random.nextInt(damaged.length - 1);
      damaged[at] ^= (byte) (1 + random.nextInt(255));
      assertRefusedOrSame(damaged);
    }
    byte[] longer = Arrays.copyOf(value, value.length + 1);
    assertThatThrownBy(() -> TaskValues.decode(KEY, longer))
        .isInstanceOf(IllegalArgumentException.class);
    byte[] huge = {0, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f, 1};
    assertThatThrownBy(() -> TaskValues.decode(KEY, huge))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("claims");
    assertThatThrownBy(() -> TaskIndex.decode(KEY, new byte[] {0}))
        .isInstanceOf(DBException.DataCorruption.class)
        .hasMessageContaining("a task record in the index is damaged");
  }

  /** A damaged value either fails to decode with IllegalArgumentException or decodes. */
  private static void assertRefusedOrSame(byte[] damaged) {
    try {
      TaskValues.decode(KEY, damaged);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).isNotBlank();
    }
  }
}
