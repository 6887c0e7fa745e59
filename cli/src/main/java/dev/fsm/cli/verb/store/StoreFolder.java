package dev.fsm.cli.verb.store;

import dev.fsm.FsmException;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.ProgressLine;
import dev.fsm.store.embedded.EmbeddedStore;
import dev.fsm.store.embedded.EmbeddedStoreOptions;
import dev.fsm.store.embedded.StoreCheck;
import dev.fsm.store.embedded.recovery.RebuildProgress;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Opens the store that {@code --store} names for the store verbs, refusing anything that is not
 * an existing embedded store: checking a folder must never create a store in it.
 */
final class StoreFolder {

  private StoreFolder() {}

  static EmbeddedStore open(GlobalOptions global, String verb, EmbeddedStoreOptions options) {
    Path folder = folder(global, verb);
    if (!StoreCheck.holdsStore(folder)) {
      throw noStore(folder);
    }
    return EmbeddedStore.open(folder, options.purpose("fsm store " + verb)
        .waiting(TaskAccess.waitInLine(global, folder)));
  }

  /**
   * The existing folder {@code --store} names, refusing a PostgreSQL store and anything that is
   * not a folder; whether it holds a store is the caller's to check.
   */
  static Path folder(GlobalOptions global, String verb) {
    String name = global.store();
    if (name.startsWith("postgresql://") || name.startsWith("postgres://")) {
      throw new FsmException("`fsm store " + verb + "` is not supported yet for PostgreSQL"
          + " stores (" + name + "); it works on an embedded store folder, named with --store"
          + " PATH");
    }
    Path folder;
    try {
      folder = Path.of(name);
    } catch (InvalidPathException e) {
      throw new FsmException("--store " + name + " is not a valid path: " + e.getReason());
    }
    if (!Files.isDirectory(folder)) {
      throw new FsmException("no store folder " + folder + (Files.exists(folder)
          ? " (it is a file)" : "") + "; name an existing store with --store PATH or"
          + " $FSM_STORE");
    }
    return folder;
  }

  static FsmException noStore(Path folder) {
    return new FsmException("folder " + folder + " holds no fsm store (it has no journal/);"
        + " name an existing store with --store PATH or $FSM_STORE");
  }

  /** A rebuild's progress, as a line redrawn on stderr when it is a terminal. */
  static RebuildProgress progress(PrintWriter err, String what) {
    ProgressLine line = ProgressLine.onStderr(err);
    return (done, total) -> line.show(what + ":", done, total);
  }
}
