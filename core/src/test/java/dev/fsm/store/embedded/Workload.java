package dev.fsm.store.embedded;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/** A fixed mix of every kind of change, and what a user can read back from a store. */
final class Workload {

  static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
  static final Duration LEASE = Duration.ofSeconds(30);
  static final Instant FAR = T0.plus(Duration.ofDays(30));

  private Workload() {}

  /**
   * Creates 60 tasks and moves them through claims, outcomes, commands, renewals and expired
   * leases; leaves some tasks leased.
   */
  static void run(Store s) {
    List<Task> batch = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      boolean paused = i % 10 == 9;
      batch.add(new Task(String.format("w-%02d", i), i % 3 == 0 ? "refund" : "order", "v1",
          i % 4 == 0 ? "ship" : "pack", paused ? TaskStatus.PAUSED : TaskStatus.RUNNABLE,
          "{\"i\":" + i + "}", 0,
          i % 7 == 0 ? List.of(new TaskError(T0.minusSeconds(i), "error " + i)) : List.of(),
          T0.minusSeconds(100), T0.minusSeconds(50), null,
          paused ? null : T0.plusSeconds(i).plusNanos(i * 1000L), null));
    }
    s.create(batch.subList(0, 30));
    s.create(batch.subList(30, 60));
    s.register("order", "machine: order # 1\n", T0);
    s.register("order", "machine: order # 2\n", T0.plusSeconds(1));
    s.register("refund", "machine: refund\n", T0.plusSeconds(2));

    Instant now = T0.plusSeconds(30);
    List<Task> claimed = s.claim("r1", 20, now, LEASE);
    for (int i = 0; i < 12; i++) {
      Task t = claimed.get(i);
      boolean done = i % 4 == 3;
      Lease keep = i >= 10 ? t.lease() : null;
      Task next = new Task(t.id(), t.machine(), t.version(), done ? "done" : "bill",
          done ? TaskStatus.COMPLETED : TaskStatus.RUNNABLE, "{\"at\":\"bill\"}", 0, t.errors(),
          t.created(), now, now.minusMillis(700), done ? null : now, keep);
      s.record("r1", new Change(next,
          new Transition(now, t.state(), "ok", next.state(), 700, 1, "r1/w" + i, "")));
    }
    s.update("w-41", t -> Commands.apply(t, Command.PAUSE, by("ann"), now));
    s.update("w-42", t -> Commands.apply(t, Command.KILL, by("ann"), now));
    s.update("w-43", t -> Commands.apply(t, Command.SLEEP,
        new Commands.Request(T0.plusSeconds(3600), "stock", "bob"), now));
    s.update("w-44", t -> Commands.apply(t, Command.ERROR,
        new Commands.Request(null, "bad address", "bob"), now));
    s.renew("r1", claimed.subList(12, 16).stream().map(Task::id).toList(), now.plusSeconds(90));
    // r1's other leases end, go back to the due queue, and two of them go to r2.
    Instant later = now.plusSeconds(60);
    s.claim("r2", 0, later, LEASE);
    s.claim("r2", 2, later, LEASE);
  }

  /** A runnable task of machine order, due at T0. */
  static Task task(String id) {
    return new Task(id, "order", "v1", "ship", TaskStatus.RUNNABLE, "{}", 0, List.of(), T0, T0,
        null, T0, null);
  }

  /** Everything a user can read from a store. */
  record Seen(List<Task> tasks, Map<String, List<Transition>> histories, List<TaskCount> counts,
      Map<String, List<MachineVersion>> versions, Map<String, List<String>> filtered) {}

  static Seen read(Store s) {
    List<Task> tasks = s.list(TaskQuery.all(10_000));
    Map<String, List<Transition>> histories = new LinkedHashMap<>();
    for (Task t : tasks) {
      histories.put(t.id(), s.history(t.id()));
    }
    Map<String, List<MachineVersion>> versions = new LinkedHashMap<>();
    for (String machine : List.of("order", "refund", "none")) {
      versions.put(machine, s.versions(machine));
    }
    Map<String, List<String>> filtered = new LinkedHashMap<>();
    for (TaskStatus status : TaskStatus.values()) {
      filtered.put(status.word(), ids(s, null, null, status));
    }
    filtered.put("order", ids(s, "order", null, null));
    filtered.put("order/bill", ids(s, "order", "bill", null));
    filtered.put("pack/runnable", ids(s, null, "pack", TaskStatus.RUNNABLE));
    filtered.put("w-3*", s.idsStartingWith("w-3", 100));
    return new Seen(tasks, histories, s.counts(), versions, filtered);
  }

  /** What a user can read, with every lease taken away. */
  static Seen withoutLeases(Seen seen) {
    return new Seen(seen.tasks().stream().map(t -> t.withLease(null)).toList(),
        seen.histories(), seen.counts(), seen.versions(), seen.filtered());
  }

  /** The folder as a crash would leave it: copied while the store is open. */
  static void copyFolder(Path from, Path to) {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Path lastSegment(Path store) throws IOException {
    try (Stream<Path> files = Files.list(store.resolve(Journal.FOLDER))) {
      return files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted()
          .reduce((a, b) -> b).orElseThrow();
    }
  }

  private static List<String> ids(Store s, String machine, String state, TaskStatus status) {
    return s.list(new TaskQuery(Optional.ofNullable(machine), Optional.ofNullable(state),
        Optional.ofNullable(status), Optional.empty(), 1000)).stream().map(Task::id).toList();
  }

  private static Commands.Request by(String who) {
    return new Commands.Request(null, "", who);
  }
}
