package dev.fsm.cli;

import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.store.Ownership;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.worker.Worker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A stand-in runner for {@link Training}: serves a throw-away in-memory store on a control
 * socket in a temporary folder, so the training can send commands the way {@code fsm send} does
 * to a real runner without touching any store of the user's.
 */
final class TrainingRunner implements AutoCloseable {

  private static final String MACHINE = "machine: nap\nstates:\n"
      + "  a: {run: builtin:sleep 1h, on: {ok: b}}\n  b: {final: completed}\n";

  private final Worker worker;

  /** Serves a store in {@code folder} (created) holding one task, {@code t1}. */
  TrainingRunner(Path folder) throws IOException {
    // The client looks for an embedded store's journal before it looks for a runner.
    Files.createDirectories(folder.resolve("journal"));
    Path file = Files.writeString(folder.resolve("nap.yaml"), MACHINE);
    // No runner: the training's task only has to be there, as if an action were running.
    worker = Worker.builder(new InMemoryStore()).machines(folder).operator("user:training")
        .serve(Ownership.OWNER_WITH_SOCKET, folder, "runner").build();
    try {
      worker.operations().start(new MachineSource("nap", file, MACHINE),
          List.of(new NewTask("t1", null, null)));
    } catch (RuntimeException e) {
      worker.close();
      throw e;
    }
  }

  @Override
  public void close() {
    worker.close();
  }
}
