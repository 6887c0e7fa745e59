package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.cli.common.Json;
import dev.fsm.engine.Contexts;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The streaming printer writes the very text ObjectMapper writes for {@link TaskJson#task}. */
class TaskJsonPrinterTest {

  @Test
  void printsWhatTheTreeModelPrints() {
    Instant t = Instant.parse("2030-01-02T03:04:05.678912Z");
    List<String> contexts = List.of("{}", "{\"a\":1}",
        "{\"f\": 1.0, \"g\": 1e300, \"h\": -0.0, \"i\": 0.1, \"j\": 12345678901234567890123,"
            + " \"k\": -9223372036854775808, \"l\": 2147483648, \"m\": 1E-7}",
        "{\"s\": \"tab\\t quote\\\" slash\\\\ \\u0001 \\u2028 \\ud83d\\ude00 </script>\"}",
        "{\"nested\": {\"list\": [[], {}, [null, false, {\"x\": [1, 2]}]], \"empty\": \"\"}}");
    for (String context : contexts) {
      for (Task task : List.of(
          new Task("t1", "m", "v1", "a", TaskStatus.RUNNABLE, Contexts.parse(context, "test"), 0,
              List.of(), t, t, null, null, null),
          new Task("t-2", "m", "v1", "b", TaskStatus.SLEEPING, Contexts.parse(context, "test"), 3,
              List.of(new TaskError(t, "boom \"quoted\"\nline"), new TaskError(
                  Instant.EPOCH, "again")), t, t.plusSeconds(1), t.plusMillis(1),
              Instant.parse("+12345-01-01T00:00:00Z"), new Lease("runner:1", t.plusNanos(1))))) {
        StringWriter streamed = new StringWriter();
        TaskJsonPrinter.print(new PrintWriter(streamed, true), task);
        StringWriter mapped = new StringWriter();
        Json.print(new PrintWriter(mapped, true), TaskJson.task(task));
        assertThat(streamed.toString()).as(context).isEqualTo(mapped.toString());
      }
    }
  }
}
