package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.model.Machine;
import dev.fsm.model.UpgradeStrategy;
import dev.fsm.store.MachineVersion;
import dev.fsm.task.Change;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import dev.fsm.yaml.MachineReader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class UpgradesTest {

  private static final Instant T = Instant.parse("2026-11-25T00:00:00Z");
  private static final String V1 = """
      machine: order
      initial: pay
      states:
        pay: {run: ./pay.sh, on: {ok: pack}}
        pack: {run: ./pack.sh, on: {ok: approve}}
        approve: {on: {yes: done}}
        done: {final: completed}
      """;
  private static final String V2 = """
      machine: order
      initial: pay
      upgrade: upgrade
      states:
        pay: {run: ./pay.sh, on: {ok: approve}}
        approve: {run: ./auto.sh, on: {ok: done}}
        done: {final: completed}
      """;
  private static final MachineVersion FROM =
      new MachineVersion("order", MachineVersion.idOf(V1), 1, T, V1);
  private static final MachineVersion TO =
      new MachineVersion("order", MachineVersion.idOf(V2), 2, T, V2);

  private static Machine machine(String text) {
    return MachineReader.read(Path.of("order.yaml"), text).machine().orElseThrow();
  }

  private static Task task(String state, TaskStatus status, Instant due, Lease lease) {
    return new Task("t1", "order", FROM.version(), state, status, "{\"a\":1}", 2,
        List.of(new TaskError(T.minusSeconds(9), "boom")), T.minusSeconds(60),
        T.minusSeconds(30), T.minusSeconds(10), due, lease);
  }

  @Test
  void eachStrategyDecidesPerTask() {
    Machine target = machine(V2);
    Task idle = task("pay", TaskStatus.RUNNABLE, T, null);
    Task gone = task("pack", TaskStatus.SLEEPING, T.plusSeconds(60), null);
    assertThat(Upgrades.decide(idle, null, target, UpgradeStrategy.CONTINUE, false).kind())
        .isEqualTo(UpgradeDecision.Kind.CONTINUE);
    assertThat(Upgrades.decide(gone, null, target, UpgradeStrategy.CONTINUE, false).kind())
        .as("continue leaves even a task whose state is gone")
        .isEqualTo(UpgradeDecision.Kind.CONTINUE);
    assertThat(Upgrades.decide(idle, null, target, UpgradeStrategy.ABORT, true).kind())
        .isEqualTo(UpgradeDecision.Kind.ABORT);
    assertThat(Upgrades.decide(idle, null, target, UpgradeStrategy.UPGRADE, false).kind())
        .isEqualTo(UpgradeDecision.Kind.MOVE);
    assertThat(Upgrades.decide(gone, null, target, UpgradeStrategy.UPGRADE, false))
        .isEqualTo(new UpgradeDecision(UpgradeDecision.Kind.FAULT, "pack"));
    assertThat(Upgrades.decide(gone, null, target, UpgradeStrategy.UPGRADE, true).kind())
        .as("a running attempt is routed by the old edges first")
        .isEqualTo(UpgradeDecision.Kind.MOVE_AFTER_ATTEMPT);
  }

  @Test
  void aMoveKeepsStateStatusContextAndErrorsAndRecordsBothVersions() {
    Task sleeping = task("pay", TaskStatus.SLEEPING, T.plusSeconds(60), null);
    Change c = Upgrades.move(sleeping, FROM, TO, machine(V2), T, "user:ann");
    assertThat(c.next().version()).isEqualTo(TO.version());
    assertThat(c.next().state()).isEqualTo("pay");
    assertThat(c.next().status()).isEqualTo(TaskStatus.SLEEPING);
    assertThat(c.next().due()).isEqualTo(T.plusSeconds(60));
    assertThat(c.next().context()).isEqualTo(sleeping.context());
    assertThat(c.next().errors()).isEqualTo(sleeping.errors());
    assertThat(c.entry()).isEqualTo(new Transition(T, "pay", "upgrade", "pay", 0, 2, "user:ann",
        "upgraded v1→v2"));
  }

  @Test
  void aStateThatChangedKindIsArrivedAtAgain() {
    Task waiting = task("approve", TaskStatus.RUNNABLE, null, null);
    Change c = Upgrades.move(waiting, FROM, TO, machine(V2), T, "user:ann");
    assertThat(c.next().due()).as("approve runs an action in v2: due now").isEqualTo(T);
    Change back = Upgrades.move(c.next(), TO, FROM, machine(V1), T, "user:ann");
    assertThat(back.next().due()).as("approve waits for a signal in v1").isNull();
  }

  @Test
  void aMissingStateParksTheTaskInFaultOnTheNewVersionNamingBothVersions() {
    Task gone = task("pack", TaskStatus.RUNNABLE, T, null);
    Change c = Upgrades.move(gone, FROM, TO, machine(V2), T, "user:ann");
    assertThat(c.next().status()).isEqualTo(TaskStatus.FAULT);
    assertThat(c.next().due()).as("parked").isNull();
    assertThat(c.next().version()).isEqualTo(TO.version());
    String error = c.next().errors().get(c.next().errors().size() - 1).message();
    assertThat(error).contains("state `pack`", "v2", "v1", "redrive --to");
    assertThat(c.entry().event()).isEqualTo("upgrade");
    assertThat(c.entry().reason()).startsWith("upgrade v1→v2: ").contains("`pack`");
  }

  @Test
  void abortKillsWithTheReasonAndDropsTheLease() {
    Task running = task("pay", TaskStatus.RUNNABLE, T, new Lease("r1", T.plusSeconds(30)));
    Change c = Upgrades.abort(running, FROM, TO, T, "user:ann");
    assertThat(c.next().status()).isEqualTo(TaskStatus.KILLED);
    assertThat(c.next().lease()).isNull();
    assertThat(c.next().due()).isNull();
    assertThat(c.entry().event()).isEqualTo("kill");
    assertThat(c.entry().reason()).isEqualTo("aborted by upgrade to v2 (v1→v2)");
  }

  @Test
  void aPendingMoveIsFoundInTheHistoryUntilTheTaskMoves() {
    Task running = task("pay", TaskStatus.RUNNABLE, T, new Lease("r1", T.plusSeconds(30)));
    Transition pending = Upgrades.pending(running, FROM, TO, T, "user:ann").entry();
    Transition routed = new Transition(T.plusSeconds(1), "pay", "ok", "pack", 5, 1, "r1/w1", "");
    assertThat(Upgrades.pendingTarget(List.of(pending, routed), 1)).contains(2);
    assertThat(Upgrades.pendingTarget(List.of(pending, routed), 2))
        .as("a task on another version owes nothing").isEmpty();
    Transition moved = Upgrades.move(running, FROM, TO, machine(V2), T, "r1").entry();
    assertThat(Upgrades.pendingTarget(List.of(pending, routed, moved), 1)).isEmpty();
    assertThat(Upgrades.pendingTarget(List.of(routed), 1)).isEmpty();
  }
}
