package dev.fsm.cli.verb.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.action.ActionOutcome;
import dev.fsm.action.ActionRunner;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.RunListener;
import dev.fsm.engine.Runner;
import dev.fsm.engine.RunnerOptions;
import dev.fsm.model.Action;
import dev.fsm.model.BuiltinAction;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.memory.InMemoryStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live line counts errors as SPEC section 3 defines them: it once said "0 errors" while a
 * state's attempts failed into its {@code error} edge.
 */
class RunLineTest {

  private static final String MACHINE = """
      machine: pay
      states:
        charge:
          run: builtin:fail card declined
          on: {ok: done, error: declined}
        declined:
          run: builtin:noop
          on: {ok: done}
        done: {final: completed}
      """;

  @TempDir Path dir;

  @Test
  void errorsRoutedByAnErrorEdgeAreCountedAsErrorsNotTransitions() throws Exception {
    ActionRunner actions = (request, attempt) -> ((Action.Builtin) request.action()).builtin()
        == BuiltinAction.FAIL ? new ActionOutcome.Error("card declined")
        : new ActionOutcome.Event("ok", null);
    try (InMemoryStore store = new InMemoryStore()) {
      MachineLibrary machines = new MachineLibrary(store, dir);
      Runner runner = new Runner(store, machines, actions,
          RunnerOptions.of(2, RunnerOptions.Mode.UNTIL_IDLE, "runner:test"), Clock.systemUTC(),
          new RunListener() {});
      Path file = Files.writeString(dir.resolve("pay.yaml"), MACHINE);
      try (StoreOperations control = new StoreOperations(store, machines, Clock.systemUTC(),
          "user:test", runner, false)) {
        control.start(new MachineSource("pay", file, MACHINE),
            Collections.nCopies(7, new NewTask(null, "{}", null)));
      }
      runner.run();

      StringWriter err = new StringWriter();
      try (RunLine line = new RunLine(new PrintWriter(err), runner)) {
        // 7 errors into the edge, 7 steps out of `declined` into `done`.
        assertThat(line.text()).contains(" · 7 transitions (").contains(" · 7 errors · ");
      }
    }
  }
}
