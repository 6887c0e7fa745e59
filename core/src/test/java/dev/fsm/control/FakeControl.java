package dev.fsm.control;

import dev.fsm.engine.ErrorReport;
import dev.fsm.engine.StateStats;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.operations.MachineBreaker;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.Operations;
import dev.fsm.operations.PurgeReport;
import dev.fsm.operations.RunnerReport;
import dev.fsm.operations.SendOptions;
import dev.fsm.operations.TaskSelector;
import dev.fsm.operations.UpgradeReport;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.PurgeQuery;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.VersionCount;
import dev.fsm.store.transfer.ExportPage;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An {@link Operations} for socket tests: answers every call with {@link Samples}, records the
 * arguments it was given, and can be told to throw or to hold calls until released.
 */
final class FakeControl implements Operations {

  /** One call as the fake received it. */
  record Call(String op, List<Object> args) {}

  final List<Call> calls = new ArrayList<>();
  volatile RuntimeException failure;
  volatile CountDownLatch gate;
  final CountDownLatch entered = new CountDownLatch(1);
  volatile boolean closed;

  private synchronized void record(String op, Object... args) {
    calls.add(new Call(op, Arrays.asList(args)));
  }

  synchronized Call last() {
    return calls.get(calls.size() - 1);
  }

  private void enter(String op, Object... args) {
    record(op, args);
    entered.countDown();
    CountDownLatch g = gate;
    if (g != null) {
      try {
        if (!g.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the test never opened the gate");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    RuntimeException f = failure;
    if (f != null) {
      throw f;
    }
  }

  @Override
  public List<Task> start(MachineSource machine, List<NewTask> tasks) {
    enter("start", machine, tasks);
    List<Task> started = new ArrayList<>(tasks.size());
    for (NewTask t : tasks) {
      started.add(Samples.task(t.id() == null ? "generated" : t.id(), t.context()));
    }
    return started;
  }

  @Override
  public Task send(String id, Command command, SendOptions o) {
    if (o.afterStep() || o.typed() != null) {
      enter("send", id, command, o.until(), o.reason(), o.to(), o.afterStep(), o.typed());
    } else {
      enter("send", id, command, o.until(), o.reason(), o.to());
    }
    return Samples.task(id, "{}");
  }

  @Override
  public BulkSendReport sendAll(TaskSelector selector, Command command, SendOptions o,
      boolean dryRun) {
    if (o.afterStep() || o.typed() != null) {
      enter("sendAll", selector, command, o.until(), o.reason(), o.to(), o.afterStep(),
          o.typed(), dryRun);
    } else {
      enter("sendAll", selector, command, o.until(), o.reason(), o.to(), dryRun);
    }
    return Samples.report(dryRun);
  }

  @Override
  public Task signal(String id, String event, String context) {
    enter("signal", id, event, context);
    return Samples.task(id, context);
  }

  @Override
  public Optional<Task> get(String id) {
    enter("get", id);
    return id.equals("missing") ? Optional.empty() : Optional.of(Samples.task(id, "{}"));
  }

  @Override
  public List<Transition> history(String id) {
    enter("history", id);
    return Samples.history();
  }

  @Override
  public List<Task> list(TaskQuery query, boolean contexts) {
    enter("list", query, contexts);
    return List.of(Samples.task("a", contexts ? "{\"k\":1}" : "{}"), Samples.bare("b"));
  }

  @Override
  public List<Task> recentlyChanged(TaskQuery filter) {
    enter("recentlyChanged", filter);
    return List.of(Samples.bare("b"));
  }

  @Override
  public List<String> idsStartingWith(String prefix, int limit) {
    enter("idsStartingWith", prefix, limit);
    return List.of(prefix + "1", prefix + "2");
  }

  @Override
  public List<TaskCount> counts() {
    enter("counts");
    return Samples.counts();
  }

  @Override
  public List<StateStats> stats(String machine) {
    enter("stats", machine);
    return Samples.stats();
  }

  @Override
  public ErrorReport errors(ErrorQuery query, int limit) {
    enter("errors", query, limit);
    return Samples.errors();
  }

  @Override
  public List<MachineVersion> versions(String machine) {
    enter("versions", machine);
    return Samples.versions();
  }

  @Override
  public UpgradeReport upgrade(MachineSource machine, boolean dryRun) {
    enter("upgrade", machine, dryRun);
    return Samples.upgrade(dryRun);
  }

  @Override
  public List<VersionCount> versionCounts(String machine) {
    enter("versionCounts", machine);
    return Samples.versionCounts();
  }

  @Override
  public PurgeReport purge(PurgeQuery query) {
    enter("purge", query.machine().orElse(null), query.statuses().toString(),
        query.olderThan().toString(), Boolean.toString(query.dryRun()));
    return Samples.purged(query.dryRun());
  }

  @Override
  public List<MachineVersion> allVersions() {
    enter("allVersions");
    return Samples.versions();
  }

  @Override
  public ExportPage exportPage(String after, int limit) {
    enter("exportPage", after, limit);
    return Samples.exportPage(after);
  }

  @Override
  public List<String> takenIds(List<String> ids) {
    enter("takenIds", ids.toString());
    return ids.stream().filter(id -> id.startsWith("t")).toList();
  }

  @Override
  public MachineVersion importVersion(String machine, String definition, Instant registered) {
    enter("importVersion", machine, definition, registered);
    return Samples.versions().get(0);
  }

  @Override
  public void importTasks(List<TaskHistory> tasks) {
    enter("importTasks", tasks.size());
  }

  @Override
  public List<String> machineNames() {
    enter("machineNames");
    return List.of("order", "ünïcødé");
  }

  @Override
  public List<MachineBreaker> breakers() {
    enter("breakers");
    return List.of(new MachineBreaker("order", "open", 0.75, 20,
        Instant.parse("2026-11-25T01:00:00.123456789Z")), MachineBreaker.none("ünïcødé"));
  }

  @Override
  public RunnerReport runners() {
    enter("runners");
    return Samples.runners();
  }

  @Override
  public String via() {
    return "local";
  }

  @Override
  public void close() {
    closed = true;
  }
}
