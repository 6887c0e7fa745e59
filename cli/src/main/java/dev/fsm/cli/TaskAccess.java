package dev.fsm.cli;

import dev.fsm.FsmException;
import dev.fsm.access.Controls;
import dev.fsm.control.SocketControl;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.operations.Operations;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.embedded.EmbeddedStore;
import dev.fsm.store.embedded.EmbeddedStoreOptions;
import dev.fsm.store.embedded.StoreCheck;
import dev.fsm.store.embedded.StoreWaiting;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

/**
 * How the task verbs reach tasks: through the control socket of the runner that owns the store,
 * or, with no owner, by opening the store in this process.
 */
public final class TaskAccess {

  private TaskAccess() {}

  /**
   * A control for one verb.
   *
   * @param verb the verb, e.g. {@code fsm send}, shown to others who find the store in use
   * @param create whether a missing store may be created (only {@code start} and {@code run})
   */
  public static Operations open(GlobalOptions global, String verb, boolean create) {
    Path folder = folder(global, create);
    return Controls.open(folder, () -> {
      EmbeddedStore store = EmbeddedStore.open(folder,
          EmbeddedStoreOptions.defaults().purpose(verb).waiting(waitInLine(global, folder)));
      return new StoreOperations(store, new MachineLibrary(store, global.machines()),
          Clock.systemUTC(), operator(), OperatorListener.NONE, true);
    });
  }

  /**
   * How a verb that opens the store itself waits while another process holds it: in line, in
   * arrival order, saying on stderr whom it waits for once that takes a second; it stops
   * waiting when the holder turns out to serve its control socket, which the verb then uses.
   */
  public static StoreWaiting waitInLine(GlobalOptions global, Path folder) {
    return StoreWaiting.inLine(notice -> {
      global.err().println("fsm: " + notice);
      global.err().flush();
    }, () -> {
      Optional<SocketControl> owner = SocketControl.connect(folder);
      owner.ifPresent(SocketControl::close);
      return owner.isPresent();
    });
  }

  /** Who an operator's commands come from in a task's history. */
  public static String operator() {
    return "user:" + System.getProperty("user.name", "unknown");
  }

  /** The embedded store folder {@code --store} names, checked. */
  public static Path folder(GlobalOptions global, boolean create) {
    String name = global.store();
    if (name.startsWith("postgresql://") || name.startsWith("postgres://")) {
      throw new FsmException("PostgreSQL stores (" + name + ") come in a later version of fsm;"
          + " use an embedded store folder with --store PATH");
    }
    Path folder;
    try {
      folder = Path.of(name);
    } catch (InvalidPathException e) {
      throw new FsmException("--store " + name + " is not a valid path: " + e.getReason());
    }
    if (Files.exists(folder) && !Files.isDirectory(folder)) {
      throw new FsmException("--store " + folder + " is a file, not a store folder");
    }
    if (!create && !(Files.isDirectory(folder) && StoreCheck.holdsStore(folder))) {
      throw new FsmException("no fsm store at " + folder + "; start a task there first with"
          + " `fsm start MACHINE`, or name a store with --store PATH or $FSM_STORE");
    }
    return folder;
  }
}
