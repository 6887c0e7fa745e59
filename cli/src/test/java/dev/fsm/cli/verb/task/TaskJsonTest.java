package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskJsonTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant T = Instant.parse("2030-01-31T09:00:00.123456Z");

  @Test
  void aTaskHasTheStableKeysInOrderWithTheContextAsAnObject() {
    Task task = new Task("a1", "order", "e9c446f974f6", "ship", TaskStatus.SLEEPING,
        "{\"n\":1,\"tags\":[\"x\"]}", 2, List.of(new TaskError(T, "carrier down")), T, T,
        T.plusSeconds(1), T.plusSeconds(60), new Lease("runner-1/w2", T.plusSeconds(30)));
    JsonNode doc = JSON.valueToTree(TaskJson.task(task));
    assertThat(doc.fieldNames()).toIterable().containsExactly("id", "machine", "version",
        "state", "status", "context", "attempt", "errors", "created", "state_entered",
        "last_attempt", "due", "lease");
    assertThat(doc.get("status").asText()).isEqualTo("sleeping");
    assertThat(doc.get("context").isObject()).isTrue();
    assertThat(doc.get("context").get("tags").get(0).asText()).isEqualTo("x");
    assertThat(doc.get("errors").get(0).get("time").asText())
        .isEqualTo("2030-01-31T09:00:00.123Z");
    assertThat(doc.get("errors").get(0).get("message").asText()).isEqualTo("carrier down");
    assertThat(doc.get("due").asText()).isEqualTo("2030-01-31T09:01:00.123Z");
    assertThat(doc.get("lease").get("owner").asText()).isEqualTo("runner-1/w2");
    assertThat(doc.get("lease").get("until").asText()).isEqualTo("2030-01-31T09:00:30.123Z");
  }

  @Test
  void missingTimesAndLeaseAreNull() {
    Task task = new Task("a1", "order", "v", "pay", TaskStatus.PAUSED, "{}", 0, List.of(), T,
        T, null, null, null);
    JsonNode doc = JSON.valueToTree(TaskJson.task(task));
    assertThat(doc.get("last_attempt").isNull()).isTrue();
    assertThat(doc.get("due").isNull()).isTrue();
    assertThat(doc.get("lease").isNull()).isTrue();
    assertThat(doc.get("errors").isArray()).isTrue();
  }

  @Test
  void historyEntriesHaveTheirKeysAndShowAddsThem() {
    Transition e = new Transition(T, "pay", "ok", "ship", 1500, 1, "runner-1/w1", "");
    JsonNode entry = JSON.valueToTree(TaskJson.transition(e));
    assertThat(entry.fieldNames()).toIterable().containsExactly("time", "from", "event", "to",
        "duration_ms", "attempt", "by", "reason");
    assertThat(entry.get("duration_ms").asLong()).isEqualTo(1500);
    Task task = new Task("a1", "order", "v", "ship", TaskStatus.RUNNABLE, "{}", 0, List.of(), T,
        T, null, T, null);
    JsonNode shown = JSON.valueToTree(TaskJson.taskWithHistory(task, List.of(e)));
    assertThat(shown.get("history").get(0).get("to").asText()).isEqualTo("ship");
  }

  @Test
  void statusCountsNameEveryStatus() {
    assertThat(TaskJson.statusCounts(java.util.Map.of(TaskStatus.FAULT, 3L)))
        .containsEntry("fault", 3L).containsEntry("runnable", 0L).hasSize(7);
  }
}
