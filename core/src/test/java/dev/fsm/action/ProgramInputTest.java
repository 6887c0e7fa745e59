package dev.fsm.action;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.engine.Contexts;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A program's stdin, byte for byte (SPEC, action protocol): unlike {@code --output json}, which
 * re-prints the context, stdin carries the stored context text as it is, with no second parse.
 */
class ProgramInputTest {

  private static final Instant T = Instant.parse("2030-01-31T09:00:00.123456Z");

  @Test
  void stdinIsOneCompactObjectWithTheStoredContextAsItIs() {
    String context = Contexts.parse("{\"g\": 1e300, \"m\": 1E-7, \"s\": \"caf\u00e9 \\u2028 \\t\","
        + " \"l\": [1, {\"x\": null}]}", "test");
    Task task = new Task("t-1", "order", "e9c446f974f6", "pay", TaskStatus.RUNNABLE, context, 2,
        List.of(), T, T, null, null, null);
    ActionRequest request = new ActionRequest(task, null, null, 3, "runner:7@h/w2");
    // version is the number `fsm machines` shows, not the definition's id.
    assertThat(new String(ProgramInput.stdin(request), StandardCharsets.UTF_8)).isEqualTo(
        "{\"id\":\"t-1\",\"machine\":\"order\",\"version\":3,\"state\":\"pay\","
            + "\"attempt\":2,\"context\":" + context + "}\n");
    assertThat(context).contains("1E+300");
  }

  @Test
  void theEnvironmentNamesTheTaskItsMachineStateAttemptAndRunner() {
    Task task = new Task("t-1", "order", "v", "pay", TaskStatus.RUNNABLE, "{}", 2, List.of(), T,
        T, null, null, null);
    ActionRequest request = new ActionRequest(task, null, null, 1, "runner:7@h/w2");
    assertThat(ProgramInput.environment(request)).isEqualTo(Map.of("FSM_TASK_ID", "t-1",
        "FSM_MACHINE", "order", "FSM_STATE", "pay", "FSM_ATTEMPT", "2", "FSM_RUNNER",
        "runner:7@h/w2"));
  }
}
