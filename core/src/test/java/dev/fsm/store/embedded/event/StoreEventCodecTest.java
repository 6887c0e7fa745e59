package dev.fsm.store.embedded.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.store.MachineVersion;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every event round-trips exactly; damaged bytes are refused cleanly; tasks stay small. */
class StoreEventCodecTest {

  private static final Instant T = Instant.parse("2026-11-21T10:00:00.123456789Z");

  private static Task task(String id, TaskStatus status, String context, Lease lease) {
    return new Task(id, "order", "0a1b2c3d4e5f", "ship", status, context, 3,
        List.of(new TaskError(T, "carrier: timeout ✗"), new TaskError(T.plusSeconds(5), "")),
        T, T.plusMillis(1), null, status == TaskStatus.PAUSED ? null : T.plusSeconds(60), lease);
  }

  private static final Transition ENTRY =
      new Transition(T, "pay", "ok", "ship", 1234, 1, "runner-7/worker-2", "");

  @Test
  void everyKindOfEventRoundTrips() {
    List<StoreEvent> events = List.of(
        new StoreEvent.Created(List.of(task("t1", TaskStatus.RUNNABLE, "{}", null),
            task("t2", TaskStatus.PAUSED, "{\"name\":\"Zoë\"}", null))),
        new StoreEvent.Changed(task("t1", TaskStatus.SLEEPING, "{\"a\":1}",
            new Lease("runner-7", T.plusSeconds(30))), ENTRY, 3),
        new StoreEvent.Restored(task("t4", TaskStatus.COMPLETED, "{}", null),
            List.of(ENTRY, new Transition(T.plusSeconds(1), "ship", "done", "end", 0, 0, "", ""))),
        new StoreEvent.Restored(task("t5", TaskStatus.RUNNABLE, "{}", null), List.of()),
        new StoreEvent.Imported(List.of(
            new StoreEvent.Restored(task("t6", TaskStatus.KILLED, "{\"n\":2.50}", null),
                List.of(ENTRY, ENTRY)),
            new StoreEvent.Restored(task("t7", TaskStatus.SLEEPING, "{}", null)
                .withPausing(new Pausing(T, "ann", "")), List.of()))),
        new StoreEvent.Imported(List.of()),
        new StoreEvent.Leased(List.of(task("t3", TaskStatus.FAULT, "{}",
            new Lease("r", Instant.ofEpochMilli(0))))),
        new StoreEvent.Registered(new MachineVersion("order", "0a1b2c3d4e5f", 2, T,
            "machine: order\nstates: {}\n")));
    for (StoreEvent event : events) {
      assertThat(StoreEventCodec.decode(StoreEventCodec.encode(event))).isEqualTo(event);
    }
    for (TaskStatus status : TaskStatus.values()) {
      Task t = task("s", status, "{}", null);
      assertThat(StoreEventCodec.decodeTask(StoreEventCodec.encodeTask(t))).isEqualTo(t);
    }
  }

  @Test
  void aPendingPauseRoundTrips() {
    Task marked = task("t1", TaskStatus.RUNNABLE, "{}", null)
        .withPausing(new Pausing(T.plusSeconds(3), "user:ann", "deploy ✓"));
    assertThat(StoreEventCodec.decodeTask(StoreEventCodec.encodeTask(marked))).isEqualTo(marked);
    StoreEvent changed = new StoreEvent.Changed(marked, ENTRY, 4);
    assertThat(StoreEventCodec.decode(StoreEventCodec.encode(changed))).isEqualTo(changed);
  }

  @Test
  void recordsOfFormatOneStillDecodeWithNoPendingPause() {
    // Written by fsm before pause --after-step (format 1): a task ended with its lease.
    Instant t = Instant.parse("2026-11-21T10:00:00.123456789Z");
    Task task = new Task("t1", "order", "0a1b2c3d4e5f", "ship", TaskStatus.RUNNABLE, "{\"a\":1}",
        2, List.of(new TaskError(t, "boom")), t, t.plusMillis(1), t.plusMillis(2),
        t.plusSeconds(60), null);
    Transition entry = new Transition(t, "pay", "ok", "ship", 1234, 1, "runner:1@h/w1", "");
    String changedV1 = "0102027431056f726465720c306131623263336434653566047368697001077b2261223a"
        + "317d0201fcd2b1ec9f34d5f01b01d5f01b04626f6f6d03d5f01b05d5f01bc1a907d5f01b00fcd2b1ec9f34"
        + "d5f01b03706179026f6b0473686970d209010d72756e6e65723a3140682f77310003";
    String taskV1 = "01027431056f726465720c306131623263336434653566047368697001077b2261223a317d"
        + "0201fcd2b1ec9f34d5f01b01d5f01b04626f6f6d03d5f01b05d5f01bc1a907d5f01b00";
    // Nor when it last changed: a change takes its entry's time, a task its state's entry.
    assertThat(StoreEventCodec.decode(HexFormat.of().parseHex(changedV1)))
        .isEqualTo(new StoreEvent.Changed(task.withChanged(t), entry, 3));
    assertThat(StoreEventCodec.decodeTask(HexFormat.of().parseHex(taskV1))).isEqualTo(task);
    assertThat(task.changed()).isEqualTo(task.stateEntered());
    assertThat(StoreEventCodec.encodeTask(task)[0]).isEqualTo((byte) StoreEventCodec.FORMAT);
  }

  @Test
  void aTasksLastChangeRoundTripsInTwoBytesWhenItEnteredItsStateThen() {
    Task task = task("t1", TaskStatus.KILLED, "{}", null);
    Task killedLater = task.withChanged(task.stateEntered().plusSeconds(3600).plusNanos(7));
    assertThat(StoreEventCodec.decodeTask(StoreEventCodec.encodeTask(killedLater)))
        .isEqualTo(killedLater);
    // Kept from the state's entry: 2 bytes when equal, 4 + 1 an hour (and 7 ns) later.
    assertThat(StoreEventCodec.encodeTask(task.withChanged(task.stateEntered())).length)
        .isEqualTo(StoreEventCodec.encodeTask(killedLater).length - 3);
  }

  @Test
  void randomTasksRoundTrip() {
    Random random = new Random(42);
    for (int i = 0; i < 2_000; i++) {
      byte[] raw = new byte[random.nextInt(400)];
      random.nextBytes(raw);
      String context = new String(raw, java.nio.charset.StandardCharsets.ISO_8859_1);
      Instant at = Instant.ofEpochSecond(random.nextInt(2_000_000_000), random.nextInt(1_000_000_000));
      Task t = new Task("id-" + random.nextLong(), "m", "v", "s",
          TaskStatus.values()[random.nextInt(TaskStatus.values().length)], context,
          random.nextInt(Integer.MAX_VALUE), List.of(), at, at, random.nextBoolean() ? at : null,
          null, random.nextBoolean() ? new Lease("o", at) : null);
      Transition e = new Transition(at, "a", "b", "c", random.nextLong(), random.nextInt(1000),
          "x", context);
      StoreEvent event = new StoreEvent.Changed(t, e, random.nextInt(100_000));
      assertThat(StoreEventCodec.decode(StoreEventCodec.encode(event))).isEqualTo(event);
    }
  }

  @Test
  void aTaskWithA200ByteContextStaysSmall() {
    String context = "{\"order\":\"" + "x".repeat(188) + "\"}";
    assertThat(context).hasSize(200);
    Task t = new Task("01JD3Q6S2F4K8M0N2P4R6T8V0X", "order", "0a1b2c3d4e5f", "await_signature",
        TaskStatus.RUNNABLE, context, 1, List.of(), T, T, T, T, null);
    assertThat(StoreEventCodec.encodeTask(t).length).isLessThanOrEqualTo(300);
  }

  @Test
  void damagedBytesAreRefusedWithAReason() {
    byte[] good = StoreEventCodec.encode(new StoreEvent.Changed(
        task("t1", TaskStatus.RUNNABLE, "{}", new Lease("r", T)), ENTRY, 0));
    for (int cut = 0; cut < good.length; cut++) {
      byte[] truncated = Arrays.copyOf(good, cut);
      assertThatThrownBy(() -> StoreEventCodec.decode(truncated))
          .as("cut at %d", cut).isInstanceOf(IllegalArgumentException.class);
    }
    byte[] longer = Arrays.copyOf(good, good.length + 1);
    assertThatThrownBy(() -> StoreEventCodec.decode(longer))
        .hasMessage("store record has bytes after its end");
    byte[] future = good.clone();
    future[0] = 9;
    assertThatThrownBy(() -> StoreEventCodec.decode(future))
        .hasMessageContaining("written by a newer fsm");
  }

  @Test
  void aPackedSnapshotTaskReadsAsItWasPackedAndAsTheWholeTask() {
    String order = "{\"order\":\"ord_qiuduwbwxf00\",\"customer\":{\"id\":\"cus_49801043\","
        + "\"name\":\"Omar Silva\",\"email\":\"omar.silva@example.com\"},\"amount\":129.9,"
        + "\"currency\":\"EUR\",\"items\":3,\"city\":\"Lisbon\"}";
    for (String context : List.of("{}", order)) {
      Task t = task("t1", TaskStatus.SLEEPING, context, null);
      byte[] packed = PackedTask.encode(t);
      List<byte[]> history = List.of(TransitionCodec.encode(ENTRY), TransitionCodec.encode(
          new Transition(T.plusSeconds(1), "ship", "done", "end", 0, 0, "", "")));
      byte[] record = StoreEventCodec.encodePacked("t1", packed, history);

      SnapshotRecord.Packed read =
          (SnapshotRecord.Packed) StoreEventCodec.decodeSnapshotRecord(record);
      assertThat(read.id()).isEqualTo("t1");
      assertThat(read.task()).isEqualTo(packed);
      assertThat(read.history()).hasSize(2);
      assertThat(read.history().get(1)).isEqualTo(history.get(1));
      assertThat(StoreEventCodec.decode(record)).isEqualTo(new StoreEvent.Restored(t,
          history.stream().map(TransitionCodec::decode).toList()));
      byte[] whole = StoreEventCodec.encode(new StoreEvent.Restored(t, List.of(ENTRY)));
      if (context.equals(order)) {
        assertThat(record.length).isLessThan(whole.length - 40);
      }
    }
    StoreEvent version = new StoreEvent.Registered(new MachineVersion("order", "0a1b", 1, T,
        "machine: order\n"));
    assertThat(StoreEventCodec.decodeSnapshotRecord(StoreEventCodec.encode(version)))
        .isEqualTo(new SnapshotRecord.Event(version));
  }

  @Test
  void aDamagedPackedTaskIsRefusedWithAReason() {
    byte[] good = StoreEventCodec.encodePacked("t1",
        PackedTask.encode(task("t1", TaskStatus.RUNNABLE, "{}", null)),
        List.of(TransitionCodec.encode(ENTRY)));
    for (int cut = 2; cut < good.length; cut++) {
      byte[] truncated = Arrays.copyOf(good, cut);
      assertThatThrownBy(() -> StoreEventCodec.decodeSnapshotRecord(truncated))
          .as("cut at %d", cut).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> StoreEventCodec.decode(truncated))
          .as("cut at %d", cut).isInstanceOf(IllegalArgumentException.class);
    }
    byte[] longer = Arrays.copyOf(good, good.length + 1);
    assertThatThrownBy(() -> StoreEventCodec.decodeSnapshotRecord(longer))
        .hasMessage("store record has bytes after its end");
    byte[] future = good.clone();
    future[0] = 9;
    assertThatThrownBy(() -> StoreEventCodec.decodeSnapshotRecord(future))
        .hasMessageContaining("written by a newer fsm");
  }

  /** The index's history values are on disk: their bytes must not move with a refactor. */
  @Test
  void historyEntryBytesArePinned() {
    Transition t = new Transition(Instant.parse("2026-11-24T22:10:00.123456789Z"), "fetch",
        "done", "parse", 1234, 3, "runner:1@h", "ok");
    byte[] bytes = TransitionCodec.encode(t);
    assertThat(HexFormat.of().formatHex(bytes)).isEqualTo("01bca6effca034d5f01b05666574"
        + "636804646f6e65057061727365d209030a72756e6e65723a314068026f6b");
    assertThat(TransitionCodec.decode(bytes)).isEqualTo(t);
  }
}
