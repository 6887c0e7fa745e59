package dev.fsm.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.TaskSelector;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Command;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.TaskStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every operation over a real socket: what the client gets equals what the delegate returned. */
class ControlRoundTripTest {

  @TempDir Path store;
  private final FakeControl fake = new FakeControl();
  private ControlServer server;
  private SocketControl client;

  @BeforeEach
  void serve() {
    server = ControlServer.start(store, fake, "runner");
    client = SocketControl.connect(store).orElseThrow();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Test
  void viaNamesTheOwnerAndItsPid() {
    assertThat(client.via()).isEqualTo("runner pid " + ProcessHandle.current().pid());
  }

  @Test
  void startCarriesTheSourceAndTasksBothWays() {
    MachineSource source = new MachineSource("order", store.resolve("machines/order.yaml"),
        "machine: order\n# größe ✓ 🚀\n");
    List<NewTask> tasks = List.of(new NewTask("t1", "{\"a\":\"ü\\u0000\"}", Samples.T),
        new NewTask(null, null, null));
    assertThat(client.start(source, tasks))
        .isEqualTo(List.of(Samples.task("t1", "{\"a\":\"ü\\u0000\"}"), Samples.task("generated",
            null)));
    assertThat(fake.last()).isEqualTo(new FakeControl.Call("start", List.of(source, tasks)));
  }

  @Test
  void bulkStartOfManyTasksRoundTrips() {
    List<NewTask> tasks = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      tasks.add(new NewTask("task-" + i, "{\"n\":" + i + "}", null));
    }
    List<dev.fsm.task.Task> started = client.start(new MachineSource("m", Path.of("/m.yaml"),
        "machine: m\n"), tasks);
    assertThat(started).hasSize(100_000);
    assertThat(started.get(99_999).context()).isEqualTo("{\"n\":99999}");
    assertThat(fake.last().args().get(1)).isEqualTo(tasks);
  }

  @Test
  void largeContextsTravelWhole() {
    String big = "{\"blob\":\"" + "é𝄞x".repeat(300_000) + "\"}";
    assertThat(client.signal("t1", "signed", big)).isEqualTo(Samples.task("t1", big));
    assertThat(fake.last().args()).containsExactly("t1", "signed", big);
  }

  @Test
  void sendKeepsNanosAndNulls() {
    assertThat(client.send("t1", Command.SLEEP, Samples.BEFORE_1970, "why ‽"))
        .isEqualTo(Samples.task("t1", "{}"));
    assertThat(fake.last().args()).containsExactly("t1", Command.SLEEP, Samples.BEFORE_1970,
        "why ‽", null);
    client.send("t2", Command.PAUSE, null, null);
    assertThat(fake.last().args()).containsExactly("t2", Command.PAUSE, null, null, null);
    client.send("t3", Command.REDRIVE, null, "db back", "charge");
    assertThat(fake.last().args()).containsExactly("t3", Command.REDRIVE, null, "db back",
        "charge");
  }

  @Test
  void sendAllCarriesTheSelector() {
    TaskSelector selector = new TaskSelector("order", Optional.of("pay"),
        Set.of(ShownStatus.FAULT, ShownStatus.WAITING));
    assertThat(client.sendAll(selector, Command.KILL, null, "bulk", true))
        .isEqualTo(Samples.report(true));
    assertThat(fake.last().args()).containsExactly(selector, Command.KILL, null, "bulk", null,
        true);
    TaskSelector wide = new TaskSelector("order", Optional.empty(), Set.of());
    client.sendAll(wide, Command.RUN, Samples.T, null, false);
    assertThat(fake.last().args()).containsExactly(wide, Command.RUN, Samples.T, null, null,
        false);
    client.sendAll(wide, Command.REDRIVE, null, null, "pay", true);
    assertThat(fake.last().args()).containsExactly(wide, Command.REDRIVE, null, null, "pay",
        true);
  }

  @Test
  void signalWithoutContext() {
    client.signal("t1", "signed", null);
    assertThat(fake.last().args()).containsExactly("t1", "signed", null);
  }

  @Test
  void getFindsOrNot() {
    assertThat(client.get("t1")).contains(Samples.task("t1", "{}"));
    assertThat(client.get("missing")).isEmpty();
  }

  @Test
  void queries() {
    assertThat(client.history("t1")).isEqualTo(Samples.history());
    TaskQuery query = new TaskQuery(Optional.of("order"), Optional.empty(),
        Optional.of(TaskStatus.PAUSED), Optional.of("t0"), 50);
    assertThat(client.list(query)).containsExactly(Samples.task("a", "{\"k\":1}"),
        Samples.bare("b"));
    assertThat(fake.last().args()).containsExactly(query, true);
    assertThat(client.list(TaskQuery.all(7), false)).containsExactly(Samples.task("a", "{}"),
        Samples.bare("b"));
    assertThat(fake.last().args()).containsExactly(TaskQuery.all(7), false);
    TaskQuery newest = new TaskQuery(Optional.of("order"), Optional.empty(), Optional.empty(),
        Optional.of("t9"), 20, TaskQuery.Order.DESCENDING);
    client.list(newest);
    assertThat(fake.last().args()).containsExactly(newest, true);
    TaskQuery waitingByCreation = new TaskQuery(Optional.empty(), Optional.of("sign"),
        Set.of(ShownStatus.WAITING, ShownStatus.PAUSED), Optional.of("t3"), 10,
        TaskQuery.Order.DESCENDING, TaskQuery.Sort.CREATED);
    client.list(waitingByCreation);
    assertThat(fake.last().args()).containsExactly(waitingByCreation, true);
    assertThat(client.idsStartingWith("01J", 20)).containsExactly("01J1", "01J2");
    assertThat(fake.last().args()).containsExactly("01J", 20);
    assertThat(client.counts()).isEqualTo(Samples.counts());
    assertThat(client.stats("order")).isEqualTo(Samples.stats());
    assertThat(fake.last().args()).containsExactly("order");
    client.stats(null);
    assertThat(fake.last().args()).containsExactly((Object) null);
    assertThat(client.versions("order")).isEqualTo(Samples.versions());
    assertThat(client.machineNames()).containsExactly("order", "ünïcødé");
    assertThat(client.runners()).isEqualTo(Samples.runners());
    assertThat(client.runners().live()).extracting(r -> r.id()).containsExactly("runner:12@a");
    ErrorQuery errors = new ErrorQuery(Samples.T, Optional.of("order"), Optional.of("pay"));
    assertThat(client.errors(errors, 20)).isEqualTo(Samples.errors());
    assertThat(fake.last().args()).containsExactly(errors, 20);
  }

  @Test
  void closingTheClientLeavesTheDelegateOpen() {
    client.close();
    assertThat(fake.closed).isFalse();
    try (SocketControl again = SocketControl.connect(store).orElseThrow()) {
      assertThat(again.machineNames()).hasSize(2);
    }
  }
}
