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
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * A store folder served as a runner serves it: a {@link ControlServer} over a {@link
 * StoreOperations} on an in-memory store, with a fixed clock, so two of them given the same tasks
 * answer the same commands with the same documents.
 */
final class ServedStore implements AutoCloseable {

  static final String MACHINE = "machine: nap\nstates:\n"
      + "  a: {run: builtin:sleep 1h, on: {ok: b}}\n  b: {final: completed}\n";

  final Path folder;
  final StoreOperations control;
  private final InMemoryStore store;
  private final ControlServer server;

  ServedStore(Path folder) throws IOException {
    this.folder = folder;
    // What the client checks for before it looks for a runner: an embedded store's journal.
    Files.createDirectories(folder.resolve("journal"));
    Path machines = Files.createDirectories(folder.resolve("machines"));
    Path file = Files.writeString(machines.resolve("nap.yaml"), MACHINE);
    store = new InMemoryStore();
    control = new StoreOperations(store, new MachineLibrary(store, machines),
        Clock.fixed(Instant.parse("2030-01-02T03:04:05.678Z"), ZoneOffset.UTC), "user:test",
        OperatorListener.NONE, false);
    control.start(new MachineSource("nap", file, MACHINE), List.of(
        new NewTask("t1", null, null),
        new NewTask("t2", "{\"n\": 1, \"x\": 1.50, \"big\": 123456789012345678901234567890,"
            + " \"s\": \"\\u00e9\\\"\\n\", \"deep\": {\"a\": [1, null, true, {}]}, \"e\": []}",
            null),
        new NewTask("t3", "{}", null),
        new NewTask("t4", "{\"k\": \"v\"}", null),
        new NewTask("uniq-5", null, null),
        new NewTask("amb-1", null, null),
        new NewTask("amb-2", null, null)));
    server = ControlServer.start(folder, control, "runner");
  }

  @Override
  public void close() {
    server.close();
    control.close();
    store.close();
  }
}
