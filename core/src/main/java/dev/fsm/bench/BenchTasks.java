package dev.fsm.bench;

import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.event.StoreEventCodec;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The tasks and outcomes a benchmark stores: realistic ids, names and contexts. */
final class BenchTasks {

  static final String MACHINE = "order";
  static final String VERSION = "a1b2c3d4e5f6";

  private final String context;

  BenchTasks(int contextBytes) {
    this.context = context(contextBytes);
  }

  /**
   * A JSON object of exactly {@code bytes} UTF-8 bytes (at least 2), like a small order context.
   */
  static String context(int bytes) {
    String head = "{\"note\":\"";
    String tail = "\"}";
    if (bytes < head.length() + tail.length()) {
      return "{" + " ".repeat(bytes - 2) + "}";
    }
    return head + "x".repeat(bytes - head.length() - tail.length()) + tail;
  }

  /**
   * A 26-character id, the length of a ULID, unique per {@code n}. Padded by hand: with
   * String.format, making ids took a visible share of the bulk create's time.
   */
  static String id(long n) {
    String digits = Long.toString(n);
    return "01HBENCH" + "0".repeat(Math.max(0, 18 - digits.length())) + digits;
  }

  /** Runnable tasks {@code from} to {@code from + count - 1}, due now. */
  List<Task> runnable(long from, int count, Instant now) {
    List<Task> tasks = new ArrayList<>(count);
    for (long n = from; n < from + count; n++) {
      tasks.add(new Task(id(n), MACHINE, VERSION, "pack", TaskStatus.RUNNABLE, context, 0,
          List.of(), now, now, null, now, null));
    }
    return tasks;
  }

  /**
   * What a runner records when an attempt succeeds: the next state, due again at once (so the
   * pool of tasks never runs dry), lease released, with its history entry.
   */
  Change succeeded(Task t, String by, Instant now) {
    String next = t.state().equals("pack") ? "ship" : "pack";
    Task after = new Task(t.id(), t.machine(), t.version(), next, TaskStatus.RUNNABLE,
        t.context(), 0, List.of(), t.created(), now, now, now, null);
    return new Change(after, new Transition(now, t.state(), "done", next, 3, 1, by, ""));
  }

  /** The size of the journal record of one such transition, for the bare log to write. */
  int transitionRecordBytes() {
    Instant now = Instant.now();
    Task t = runnable(0, 1, now).get(0);
    Change c = succeeded(t, "bench/w1", now.plusMillis(5));
    return StoreEventCodec.encode(new StoreEvent.Changed(c.next(), c.entry(), 1)).length;
  }
}
