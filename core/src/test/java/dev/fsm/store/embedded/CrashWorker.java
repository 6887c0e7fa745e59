package dev.fsm.store.embedded;

import static dev.fsm.store.embedded.CrashWriter.FAR;
import static dev.fsm.store.embedded.CrashWriter.LEASE;
import static dev.fsm.store.embedded.CrashWriter.NOW;

import dev.fsm.store.MachineVersion;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.CommandTable;
import dev.fsm.task.Commands;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * One thread of {@link CrashWriter}: owns the tasks whose ids start with its prefix and changes
 * them at random (bulk and single creates, claims, outcomes, commands, renewals, machine
 * versions), announcing each change before making it and acknowledging it after.
 */
final class CrashWorker implements Runnable {

  /** A task as this thread last left it, with its history's length and hash. */
  record Known(Task task, int history, int hash) {

    Known after(Change c) {
      return new Known(c.next(), history + 1, Expect.fold(hash, c.entry()));
    }

    String word() {
      return Expect.task(task, history, hash);
    }
  }

  private final EmbeddedStore store;
  private final int thread;
  private final int run;
  private final Random random;
  private final Object claims;
  private final Map<String, Known> tasks;
  private final Set<String> held = new LinkedHashSet<>();
  private final String owner;
  private final String machine;
  private int versions;
  private int created;

  CrashWorker(EmbeddedStore store, int thread, int run, Random random, Object claims,
      Map<String, Known> tasks) {
    this.store = store;
    this.thread = thread;
    this.run = run;
    this.random = random;
    this.claims = claims;
    this.tasks = tasks;
    this.owner = "writer-" + thread;
    this.machine = "m" + thread;
    this.versions = store.versions(machine).size();
  }

  static String prefix(int thread) {
    return "w" + thread + "-";
  }

  @Override
  public void run() {
    while (true) {
      int dice = random.nextInt(100);
      if (dice < 12 || tasks.size() < 4) {
        create(2 + random.nextInt(5));
      } else if (dice < 17) {
        create(1);
      } else if (dice < 37) {
        claimOne();
      } else if (dice < 62) {
        recordOutcome();
      } else if (dice < 70) {
        renew();
      } else if (dice < 95) {
        command();
      } else {
        register();
      }
    }
  }

  private void create(int count) {
    List<Task> batch = new ArrayList<>();
    Map<String, Known> next = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      String id = prefix(thread) + run + "-" + created++;
      Task t = new Task(id, machine, "v1", "s0", TaskStatus.PAUSED, "{\"n\":0}", 0, List.of(),
          NOW, NOW, null, null, null);
      batch.add(t);
      next.put(id, new Known(t, 0, 1));
    }
    intend(next);
    store.create(batch);
    acked(next);
  }

  /** Makes one resting task due and claims it, with no other thread making tasks due meanwhile. */
  private void claimOne() {
    String id = pick(k -> !held.contains(k.task().id())
        && (k.task().status() == TaskStatus.PAUSED || k.task().status() == TaskStatus.SLEEPING));
    if (id == null) {
      return;
    }
    synchronized (claims) {
      update(id, Command.RUN);
      List<Task> claimed = store.claim(owner, 1, NOW, LEASE);
      if (claimed.size() != 1 || !claimed.get(0).id().equals(id)) {
        throw new IllegalStateException(owner + " made " + id + " due but claimed " + claimed);
      }
      held.add(id);
    }
  }

  private void recordOutcome() {
    String id = held.isEmpty() ? null : List.copyOf(held).get(random.nextInt(held.size()));
    if (id == null) {
      return;
    }
    Task t = tasks.get(id).task();
    int step = Integer.parseInt(t.state().substring(1)) + 1;
    int roll = random.nextInt(10);
    TaskStatus status = roll < 5 ? TaskStatus.RUNNABLE
        : roll < 8 ? TaskStatus.SLEEPING : TaskStatus.COMPLETED;
    Lease keep = status == TaskStatus.RUNNABLE ? new Lease(owner, NOW.plus(LEASE)) : null;
    Instant due = status == TaskStatus.RUNNABLE ? NOW : status == TaskStatus.SLEEPING ? FAR : null;
    Task next = new Task(id, t.machine(), t.version(), "s" + step, status,
        "{\"n\":" + step + "}", t.attempt() + 1, t.errors(), t.created(), NOW, NOW, due, keep);
    Change change = new Change(next,
        new Transition(NOW, t.state(), "ok", next.state(), 5, t.attempt() + 1, owner, ""));
    Map<String, Known> after = Map.of(id, tasks.get(id).after(change));
    intend(after);
    store.record(owner, change);
    acked(after);
    if (keep == null) {
      held.remove(id);
    }
  }

  private void renew() {
    if (held.isEmpty()) {
      return;
    }
    Set<String> lost = store.renew(owner, held, NOW.plus(LEASE).plusSeconds(random.nextInt(60)));
    if (!lost.isEmpty()) {
      throw new IllegalStateException(owner + " lost leases it held: " + lost);
    }
  }

  private void command() {
    String id = pick(k -> !k.task().status().isTerminal()
        && (k.task().status() != TaskStatus.RUNNABLE || held.contains(k.task().id())
            || k.task().lease() != null));
    if (id == null) {
      return;
    }
    int roll = random.nextInt(20);
    Command command = roll < 7 ? Command.PAUSE : roll < 13 ? Command.SLEEP
        : roll < 19 ? Command.CHECKPOINT : Command.KILL;
    if (CommandTable.next(tasks.get(id).task().status(), command).isEmpty()) {
      return;
    }
    update(id, command);
    if (command.stopsRunningAction()) {
      held.remove(id);
    }
  }

  private void register() {
    String key = Expect.machineKey(machine);
    Map<String, String> next = Map.of(key, Expect.versions(versions + 1));
    CrashWriter.line(intent(next));
    MachineVersion v = store.register(machine, "machine: " + machine + " # " + run + "-"
        + random.nextLong() + "\n", NOW);
    if (v.number() != versions + 1) {
      throw new IllegalStateException(machine + " got version " + v.number());
    }
    versions++;
    CrashWriter.line("A " + thread);
  }

  /**
   * Sends an operator's command. The store computes it from the task it holds, whose lease this
   * thread may not know (the sweep's), and the lease is no part of the expectation.
   */
  private void update(String id, Command command) {
    Commands.Request request = new Commands.Request(FAR, "", "op");
    Known after = tasks.get(id).after(Commands.apply(tasks.get(id).task(), command, request, NOW));
    intend(Map.of(id, after));
    Task stored = store.update(id, t -> Commands.apply(t, command, request, NOW));
    if (!stored.withLease(null).equals(after.task().withLease(null))) {
      throw new IllegalStateException("update of " + id + " stored " + stored + ", not "
          + after.task());
    }
    acked(Map.of(id, new Known(stored, after.history(), after.hash())));
  }

  private String pick(java.util.function.Predicate<Known> wanted) {
    List<String> ids = new ArrayList<>();
    for (Known k : tasks.values()) {
      if (wanted.test(k)) {
        ids.add(k.task().id());
      }
    }
    return ids.isEmpty() ? null : ids.get(random.nextInt(ids.size()));
  }

  private void intend(Map<String, Known> next) {
    Map<String, String> words = new LinkedHashMap<>();
    next.forEach((id, k) -> words.put(id, k.word()));
    CrashWriter.line(intent(words));
  }

  private String intent(Map<String, String> words) {
    StringBuilder line = new StringBuilder("I ").append(thread);
    words.forEach((key, word) -> line.append(' ').append(key).append('=').append(word));
    return line.toString();
  }

  /** The one place every acknowledged change passes. */
  private void acked(Map<String, Known> next) {
    tasks.putAll(next);
    CrashWriter.line("A " + thread);
  }
}
