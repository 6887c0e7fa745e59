package dev.fsm.cli.verb.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fsm.engine.Breaker;
import dev.fsm.engine.RunListener;
import dev.fsm.store.MachineVersion;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JSON event lines of {@code fsm run --output json}: one object a line, stable keys. */
class RunEventsTest {

  private static final Instant NOW = Instant.parse("2026-11-25T10:15:03.412345Z");
  private static final String MACHINE = """
      machine: order
      states:
        pay: {run: builtin:noop, on: {ok: sign}}
        sign: {on: {signed: done}}
        done: {final: completed}
      """;

  private final StringWriter text = new StringWriter();
  private final RunEvents events = new RunEvents(new PrintWriter(text),
      Clock.fixed(NOW, ZoneOffset.UTC),
      machine -> List.of(new MachineVersion("order", "v1", 1, NOW, MACHINE)));

  @Test
  void aTransitionShowsTheTaskAsLsWouldAndAnErrorCarriesItsMessage() throws Exception {
    events.recorded(change("sign", TaskStatus.RUNNABLE,
        new Transition(NOW, "pay", "ok", "sign", 212, 1, "runner:7@h/w3", "")));
    events.recorded(change("pay", TaskStatus.SLEEPING,
        new Transition(NOW, "pay", "error", "pay", 48, 2, "runner:7@h/w1",
            "card declined; retry in 1s (2 of 3 errors in 1h)")));

    List<JsonNode> lines = lines();
    JsonNode moved = lines.get(0);
    assertThat(moved.toString()).isEqualTo("{\"type\":\"transition\","
        + "\"time\":\"2026-11-25T10:15:03.412Z\",\"task\":\"t-1\",\"machine\":\"order\","
        + "\"version\":\"v1\",\"from\":\"pay\",\"event\":\"ok\",\"to\":\"sign\","
        + "\"status\":\"waiting\",\"duration_ms\":212,\"attempt\":1,\"by\":\"runner:7@h/w3\","
        + "\"reason\":\"\",\"error\":null}");
    JsonNode failed = lines.get(1);
    assertThat(failed.get("status").asText()).isEqualTo("sleeping");
    assertThat(failed.get("error").asText())
        .isEqualTo("card declined; retry in 1s (2 of 3 errors in 1h)");
  }

  @Test
  void runnerEventsHaveATypeATimeAndTheirOwnKeys() throws Exception {
    events.started(new RunStart("runner:7@h", "h", ".fsm", "embedded", 4, "forever", List.of(),
        Duration.ofSeconds(30), Duration.ofSeconds(10), "http://h:9464/metrics", "0.1.0"));
    events.breaker("order", new Breaker.Change(new Breaker.Status(Breaker.Phase.OPEN, 0.65, 20,
        NOW.plusSeconds(30)), true, false));
    events.breaker("order", new Breaker.Change(new Breaker.Status(Breaker.Phase.CLOSED, 0, 0,
        null), false, false));
    events.problem(RunListener.Topic.STORE_UNAVAILABLE, "store unavailable (claiming): gone");
    events.problem(RunListener.Topic.STORE_AVAILABLE, "store reachable again after 1.2 s");
    events.problem(RunListener.Topic.LEASE, "lease could not be renewed");
    events.problem("task `t-1`: internal error");
    events.discarded("t-1", "its lease was lost");
    events.purged("order", Duration.ofDays(30), 12);
    events.stopping(3, false);
    events.stopped(18211, 97, Duration.ofMillis(301214));

    List<JsonNode> lines = lines();
    List<String> types = new ArrayList<>();
    lines.forEach(l -> {
      types.add(l.get("type").asText());
      assertThat(l.get("time").asText()).isEqualTo("2026-11-25T10:15:03.412Z");
    });
    assertThat(types).containsExactly("started", "breaker_opened", "breaker_closed",
        "store_unavailable", "store_available", "lease_problem", "problem", "discarded",
        "purged", "stopping", "stopped");
    JsonNode started = lines.get(0);
    assertThat(started.get("workers").asInt()).isEqualTo(4);
    assertThat(started.get("store_kind").asText()).isEqualTo("embedded");
    assertThat(started.get("lease_ms").asLong()).isEqualTo(30_000);
    assertThat(started.get("machines").isArray()).isTrue();
    assertThat(started.get("metrics").asText()).isEqualTo("http://h:9464/metrics");
    assertThat(lines.get(1).get("until").asText()).isEqualTo("2026-11-25T10:15:33.412Z");
    assertThat(lines.get(1).get("error_rate").asDouble()).isEqualTo(0.65);
    assertThat(lines.get(2).get("until").isNull()).isTrue();
    assertThat(lines.get(3).get("message").asText()).contains("gone");
    assertThat(lines.get(8).get("retention").asText()).isEqualTo("30d");
    assertThat(lines.get(9).get("at_once").asBoolean()).isFalse();
    assertThat(lines.get(10).get("errors").asInt()).isEqualTo(97);
  }

  private List<JsonNode> lines() throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> out = new ArrayList<>();
    for (String line : text.toString().split("\n")) {
      out.add(json.readTree(line));
    }
    return out;
  }

  private static Change change(String state, TaskStatus status, Transition entry) {
    Task next = new Task("t-1", "order", "v1", state, status, "{}", entry.attempt(), List.of(),
        NOW, NOW, NOW, null, null);
    return new Change(next, entry);
  }
}
