package dev.fsm.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import dev.fsm.control.wire.Breakers;
import dev.fsm.control.wire.Codec;
import dev.fsm.control.wire.Counts;
import dev.fsm.control.wire.Envelope;
import dev.fsm.control.wire.AllVersions;
import dev.fsm.control.wire.Errors;
import dev.fsm.control.wire.ExportPageRequest;
import dev.fsm.control.wire.Get;
import dev.fsm.control.wire.Hello;
import dev.fsm.control.wire.ImportTasks;
import dev.fsm.control.wire.ImportVersion;
import dev.fsm.control.wire.History;
import dev.fsm.control.wire.Ids;
import dev.fsm.control.wire.ListTasks;
import dev.fsm.control.wire.MachineNames;
import dev.fsm.control.wire.Purge;
import dev.fsm.control.wire.RecentlyChanged;
import dev.fsm.control.wire.Request;
import dev.fsm.control.wire.Runners;
import dev.fsm.control.wire.Send;
import dev.fsm.control.wire.SendAll;
import dev.fsm.control.wire.Signal;
import dev.fsm.control.wire.Start;
import dev.fsm.control.wire.Stats;
import dev.fsm.control.wire.TakenIds;
import dev.fsm.control.wire.Upgrade;
import dev.fsm.control.wire.VersionCounts;
import dev.fsm.control.wire.Versions;
import dev.fsm.control.wire.Wire;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.TaskSelector;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Command;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every request record, walked through the permitted subclasses of {@link Request}: it is read
 * back from what it wrote, by the one table that picks a record by name, and its result codec
 * reads back what it wrote. A new operation without a sample, a table entry or a working codec
 * fails here.
 */
class RequestRoundTripTest {

  /** At least one request of every operation, with the awkward values of {@link Samples}. */
  private static List<Request<?>> samples() {
    return List.of(
        new Hello(),
        new Start(new MachineSource("order", Path.of("/m/order.yaml"), "machine: order # ✓\n"),
            List.of(new NewTask("t1", "{\"a\":\"ü\\u0000\"}", Samples.BEFORE_1970),
                new NewTask(null, null, null))),
        new Send("t1", Command.SLEEP, Samples.T, "why ‽", null),
        new Send("t2", Command.PAUSE, null, null, null),
        new Send("t3", Command.REDRIVE, null, "db back", "charge"),
        new Send("t4", Command.PAUSE, null, "deploy", null, true, null),
        new Send("t5", Command.RUN, null, null, null, false, "resume"),
        new SendAll(new TaskSelector("order", Optional.of("pay"), Set.of(ShownStatus.FAULT)),
            Command.KILL, null, "bulk", null, true),
        new SendAll(new TaskSelector("order", Optional.empty(), Set.of(ShownStatus.FAILED)),
            Command.REDRIVE, null, null, "pay", false),
        new SendAll(new TaskSelector("order", Optional.empty(), Set.of()), Command.RUN,
            Samples.T, null, null, false),
        new SendAll(new TaskSelector("order", Optional.empty(), Set.of()), Command.PAUSE,
            null, null, null, true, null, true),
        new Signal("t1", "signed", "{\"n\":1}"),
        new Signal("t1", "signed", null),
        new Get("t1"),
        new Get("missing"),
        new History("t1"),
        new ListTasks(new TaskQuery(Optional.of("order"), Optional.empty(),
            Optional.of(TaskStatus.PAUSED), Optional.of("t0"), 50, TaskQuery.Order.DESCENDING)),
        new ListTasks(TaskQuery.all(7)),
        new ListTasks(TaskQuery.all(3), false),
        new ListTasks(new TaskQuery(Optional.empty(), Optional.empty(),
            Set.of(ShownStatus.WAITING, ShownStatus.RUNNABLE), Optional.empty(), 3,
            TaskQuery.Order.ASCENDING, TaskQuery.Sort.UPDATED)),
        new ListTasks(new TaskQuery(Optional.empty(), Optional.empty(), Set.of(),
            Optional.of("t1"), 3, TaskQuery.Order.DESCENDING, TaskQuery.Sort.UPDATED,
            Optional.of(java.time.Instant.parse("2026-11-29T10:00:00.123456789Z")))),
        new RecentlyChanged(new TaskQuery(Optional.of("order"), Optional.of("ship"),
            Set.of(ShownStatus.WAITING), Optional.empty(), 20, TaskQuery.Order.DESCENDING,
            TaskQuery.Sort.UPDATED)),
        new Ids("01J", 20),
        new Counts(),
        new Stats("order"),
        new Stats(null),
        new Versions("order"),
        new MachineNames(),
        new Breakers(),
        new Upgrade(new MachineSource("order", Path.of("/m/order.yaml"), "machine: order\n"),
            true),
        new Upgrade(new MachineSource("order", Path.of("/m/order.yaml"), "machine: order\n"),
            false),
        new VersionCounts("order"),
        new Purge("order", List.of(TaskStatus.FAILED, TaskStatus.KILLED), Duration.ofDays(30),
            true),
        new Purge(null, List.of(), Duration.ofSeconds(90, 5), false),
        new Runners(),
        new Errors(Samples.T, "order", "pay", 20),
        new Errors(Samples.BEFORE_1970, null, null, 1),
        new AllVersions(),
        new ExportPageRequest(null, 500),
        new ExportPageRequest("t9", 1),
        new TakenIds(List.of("t1", "ü-2", "x3")),
        new ImportVersion("order", "machine: order # ✓\n", Samples.BEFORE_1970),
        new ImportTasks(Samples.exportPage(null).tasks()));
  }

  @Test
  void everyOperationHasASampleAndItsOwnName() {
    Set<Class<?>> sampled = new HashSet<>();
    Set<String> names = new HashSet<>();
    for (Request<?> r : samples()) {
      sampled.add(r.getClass());
      names.add(r.op());
    }
    assertThat(sampled).containsExactlyInAnyOrder(Request.class.getPermittedSubclasses());
    assertThat(names).hasSameSizeAs(sampled);
  }

  @Test
  void everyRequestReadsBackAsWritten() throws IOException {
    for (Request<?> r : samples()) {
      Envelope read = envelope(written(r));
      assertThat(read.version()).isEqualTo(Wire.VERSION);
      assertThat(read.op()).isEqualTo(r.op());
      assertThat(read.request()).as(written(r)).isEqualTo(r);
    }
  }

  @Test
  void everyResultReadsBackAsWritten() throws IOException {
    FakeControl fake = new FakeControl();
    List<Object> results = new ArrayList<>();
    for (Request<?> r : samples()) {
      results.add(roundTrip(r, fake));
    }
    assertThat(results).contains(Optional.empty(), Samples.history(), Samples.counts(),
        Samples.stats(), Samples.versions(), Samples.report(true), Samples.upgrade(true),
        Samples.upgrade(false), Samples.versionCounts(), Samples.purged(true),
        Samples.purged(false), Samples.runners(), Samples.errors(), Samples.exportPage(null),
        Samples.exportPage("t9"));
  }

  /** Runs the request on the fake and checks its result survives its codec. */
  private static <R> R roundTrip(Request<R> r, FakeControl fake) throws IOException {
    R result = r.apply(fake, "runner pid 1");
    Codec<R> codec = r.result();
    StringWriter text = new StringWriter();
    try (JsonGenerator g = Wire.JSON.createGenerator(text)) {
      codec.write(g, result);
    }
    try (JsonParser p = Wire.JSON.createParser(text.toString())) {
      p.nextToken();
      assertThat(codec.read(p)).as(r.op() + ": " + text).isEqualTo(result);
      assertThat(p.nextToken()).isNull();
    }
    return result;
  }

  @Test
  void onlyOperationsThatMayChangeTasksSaySo() {
    Set<String> changing = new HashSet<>();
    for (Request<?> r : samples()) {
      if (r.changes()) {
        changing.add(r.op() + (r instanceof SendAll s && s.dryRun()
            || r instanceof Upgrade u && u.dryRun() || r instanceof Purge p && p.dryRun()
            ? " --dry-run" : ""));
      }
    }
    assertThat(changing).containsExactlyInAnyOrder("start", "send", "sendAll", "signal",
        "upgrade", "purge", "importVersion", "importTasks");
  }

  @Test
  void theWireFormatStaysAsItWas() throws IOException {
    assertThat(written(new Send("t1", Command.SLEEP, Samples.T, null, null))).isEqualTo(
        "{\"v\":1,\"op\":\"send\",\"id\":\"t1\",\"command\":\"sleep\","
            + "\"until\":[1763000000,123456789],\"reason\":null,\"to\":null}");
    assertThat(written(new Ids("01", 5)))
        .isEqualTo("{\"v\":1,\"op\":\"idsStartingWith\",\"prefix\":\"01\",\"limit\":5}");
    assertThat(written(new ListTasks(TaskQuery.all(7)))).isEqualTo(
        "{\"v\":1,\"op\":\"list\",\"query\":{\"machine\":null,\"state\":null,\"statuses\":[],"
            + "\"afterId\":null,\"limit\":7,\"order\":\"ascending\",\"sort\":\"id\"}}");
    assertThat(written(new MachineNames())).isEqualTo("{\"v\":1,\"op\":\"machineNames\"}");
  }

  @Test
  void fieldsComeInAnyOrderAndUnknownOnesAreSkipped() throws IOException {
    Envelope read = envelope("{\"reason\":\"r\",\"later\":{\"x\":[1,{}]},\"id\":\"t1\","
        + "\"command\":\"pause\",\"op\":\"send\",\"v\":1}");
    assertThat(read.request()).isEqualTo(new Send("t1", Command.PAUSE, null, "r", null));
  }

  @Test
  void leftOutArgumentsTakeTheirDefaults() throws IOException {
    assertThat(envelope("{\"v\":1,\"op\":\"idsStartingWith\",\"prefix\":\"a\"}").request())
        .isEqualTo(new Ids("a", 0));
    assertThat(envelope("{\"v\":1,\"op\":\"start\",\"source\":{\"name\":\"m\"}}").request())
        .isEqualTo(new Start(new MachineSource("m", null, null), List.of()));
  }

  @Test
  void anOperationThisBuildDoesNotKnowHasNoRequest() throws IOException {
    Envelope read = envelope("{\"v\":1,\"op\":\"reboot\",\"id\":\"t1\"}");
    assertThat(read.op()).isEqualTo("reboot");
    assertThat(read.request()).isNull();
    assertThat(envelope("{\"v\":1}").request()).isNull();
  }

  private static String written(Request<?> r) throws IOException {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = Wire.JSON.createGenerator(text)) {
      Envelope.write(g, r);
    }
    return text.toString();
  }

  private static Envelope envelope(String text) throws IOException {
    try (JsonParser p = Wire.JSON.createParser(text)) {
      p.nextToken();
      return Envelope.read(p);
    }
  }

  @Test
  void aPurgeRequestWithoutAnAgeOrWithAStatusThatCanStillMoveIsRefused() {
    FakeControl fake = new FakeControl();
    assertThatThrownBy(() -> new Purge(null, List.of(), null, false).apply(fake, "runner"))
        .isInstanceOf(dev.fsm.FsmException.class).hasMessageContaining("must give its age");
    assertThatThrownBy(() -> new Purge(null, List.of(TaskStatus.RUNNABLE), Duration.ofDays(1),
        false).apply(fake, "runner")).isInstanceOf(dev.fsm.FsmException.class)
        .hasMessageContaining("not runnable");
  }
}
