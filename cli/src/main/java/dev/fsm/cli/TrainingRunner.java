package dev.fsm.cli;

import dev.fsm.control.ControlServer;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.memory.InMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * A stand-in runner for {@link Training}: serves a throw-away in-memory store on a control
 * socket in a temporary folder, so the training can send commands the way {@code fsm send} does
 * to a real runner without touching any store of the user's.
 */
final class TrainingRunner implements AutoCloseable {

  private static final String MACHINE = "machine: nap\nstates:\n"
      + "  a: {run: builtin:sleep 1h, on: {ok: b}}\n  b: {final: completed}\n";

  private final InMemoryStore store;
  private final StoreOperations control;
  private final ControlServer server;

  /** Serves a store in {@code folder} (created) holding one task, {@code t1}. */
  TrainingRunner(Path folder) throws IOException {
    // The client looks for an embedded store's journal before it looks for a runner.
    Files.createDirectories(folder.resolve("journal"));
    Path file = Files.writeString(folder.resolve("nap.yaml"), MACHINE);
    store = new InMemoryStore();
    control = new StoreOperations(store, new MachineLibrary(store, folder), Clock.systemUTC(),
        "user:training", OperatorListener.NONE, false);
    control.start(new MachineSource("nap", file, MACHINE), List.of(new NewTask("t1", null, null)));
    server = ControlServer.start(folder, control, "runner");
  }

  @Override
  public void close() {
    server.close();
    control.close();
    store.close();
  }
}
