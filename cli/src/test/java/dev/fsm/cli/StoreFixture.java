package dev.fsm.cli;

import dev.fsm.store.embedded.EmbeddedStore;
import dev.fsm.store.embedded.index.KeySerializer;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.mapdb.BTreeMap;
import org.mapdb.DB;
import org.mapdb.DBMaker;
import org.mapdb.Serializer;

/**
 * Makes embedded stores for the store verbs' tests, in a process of its own as a runner would
 * (there are no verbs that write tasks yet). Modes: {@code fill FOLDER N} creates N tasks and
 * moves some; {@code write FOLDER} creates tasks and prints "ack" after each until killed;
 * {@code hold FOLDER} keeps the store open until stdin closes; {@code tamper FOLDER ID} changes
 * one task's state inside a closed store's index.db, keeping the file otherwise sound; {@code
 * finished FOLDER N} creates N tasks of machine {@code order} completed at T0, each with one
 * history entry.
 */
public final class StoreFixture {

  static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

  private StoreFixture() {}

  public static void main(String[] args) throws Exception {
    Path folder = Path.of(args[1]);
    switch (args[0]) {
      case "fill" -> fill(folder, Integer.parseInt(args[2]));
      case "write" -> write(folder);
      case "hold" -> hold(folder);
      case "tamper" -> tamper(folder, args[2]);
      case "finished" -> finished(folder, Integer.parseInt(args[2]));
      default -> throw new IllegalArgumentException(args[0]);
    }
  }

  static Task task(String id) {
    return new Task(id, "order", "v1", "pay", TaskStatus.RUNNABLE, "{\"id\":\"" + id + "\"}", 0,
        List.of(), T0, T0, null, T0, null);
  }

  private static void fill(Path folder, int count) {
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      List<Task> tasks = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        tasks.add(task(String.format("t-%03d", i)));
      }
      store.create(tasks);
      for (Task t : store.claim("runner", count / 2, T0, Duration.ofMinutes(5))) {
        Task next = new Task(t.id(), t.machine(), t.version(), "ship", TaskStatus.RUNNABLE,
            t.context(), 0, List.of(), t.created(), T0, T0, T0, null);
        store.record("runner", new Change(next,
            new Transition(T0, "pay", "ok", "ship", 12, 1, "runner/w1", "")));
      }
      store.register("order", "machine: order\n", T0);
    }
  }

  private static void finished(Path folder, int count) {
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      store.register("order", "machine: order\n", T0);
      List<Task> tasks = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        tasks.add(task(String.format("f-%06d", i)));
        if (tasks.size() == 1000 || i == count - 1) {
          store.create(tasks);
          tasks.clear();
        }
      }
      for (Task t : store.claim("runner", count, T0, Duration.ofMinutes(5))) {
        Task done = new Task(t.id(), t.machine(), t.version(), "done", TaskStatus.COMPLETED,
            t.context(), 0, List.of(), t.created(), T0, T0, null, null);
        tasks.add(done);
        if (tasks.size() == 1000) {
          recordDone(store, tasks);
        }
      }
      recordDone(store, tasks);
    }
  }

  private static void recordDone(EmbeddedStore store, List<Task> done) {
    List<Change> changes = new ArrayList<>();
    for (Task t : done) {
      changes.add(new Change(t, new Transition(T0, "pay", "ok", "done", 12, 1, "runner/w1", "")));
    }
    store.recordAll("runner", changes);
    done.clear();
  }

  private static void write(Path folder) {
    EmbeddedStore store = EmbeddedStore.open(folder);
    for (int i = 0; ; i++) {
      store.create(List.of(task(String.format("k-%06d", i))));
      store.claim("runner", 1, T0, Duration.ofMinutes(5));
      System.out.println("ack");
      System.out.flush();
    }
  }

  private static void hold(Path folder) throws Exception {
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      System.out.println("held " + store.folder());
      System.out.flush();
      System.in.read();
    }
  }

  private static void tamper(Path folder, String id) {
    DB db = DBMaker.fileDB(folder.resolve("index.db").toFile()).fileMmapEnableIfSupported()
        .make();
    try {
      // Task keys in the index are the ids' UTF-8 bytes.
      BTreeMap<byte[], byte[]> tasks =
          db.treeMap("tasks", KeySerializer.INSTANCE, Serializer.BYTE_ARRAY).open();
      byte[] key = id.getBytes(StandardCharsets.UTF_8);
      Task t = TaskIndex.decode(key, tasks.get(key));
      tasks.put(key, TaskIndex.encode(new Task(t.id(), t.machine(), t.version(),
          "forged", t.status(), t.context(), t.attempt(), t.errors(), t.created(),
          t.stateEntered(), t.lastAttempt(), t.due(), t.lease())));
    } finally {
      db.close();
    }
  }
}
