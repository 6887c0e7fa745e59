package dev.fsm.cli.verb.store;

import dev.fsm.FsmException;
import dev.fsm.access.StoreAccess;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.ProgressLine;
import dev.fsm.store.StoreBusyException;
import dev.fsm.store.StorePurpose;
import dev.fsm.store.embedded.EmbeddedStore;
import dev.fsm.store.embedded.EmbeddedStoreKind;
import dev.fsm.store.embedded.EmbeddedStoreOptions;
import dev.fsm.store.embedded.recovery.RebuildProgress;
import java.io.PrintWriter;
import java.util.function.UnaryOperator;

/**
 * Opens the store that {@code --store} names for the store verbs, which are the embedded
 * store's own: anything that is not an existing embedded store is refused, as checking a folder
 * must never create a store in it.
 */
final class StoreFolder {

  private StoreFolder() {}

  static EmbeddedStore open(GlobalOptions global, String verb,
      UnaryOperator<EmbeddedStoreOptions> tuning) {
    String purpose = "fsm store " + verb;
    StoreAccess access = StoreAccess.standard();
    StoreAccess.Located at = access.find(global.store(), StorePurpose.CHECK, purpose);
    // The kind first: a database store is refused before its server is asked anything.
    EmbeddedStoreKind kind = embedded(at, verb);
    kind.check(at.location(), StorePurpose.CHECK, purpose, false);
    try {
      return kind.open(at.location(),
          access.options(at, purpose, false, TaskAccess.notice(global)), tuning);
    } catch (StoreBusyException e) {
      throw StoreAccess.busy(at, StorePurpose.CHECK, purpose, e);
    }
  }

  /** The store {@code --store} names, found but not checked: repair checks it its own way. */
  static StoreAccess.Located find(GlobalOptions global, String verb) {
    return StoreAccess.standard().find(global.store(), StorePurpose.CHECK, "fsm store " + verb);
  }

  /** The embedded store kind, which is all these verbs serve. */
  static EmbeddedStoreKind embedded(StoreAccess.Located at, String verb) {
    if (at.kind() instanceof EmbeddedStoreKind kind) {
      return kind;
    }
    throw new FsmException("`fsm store " + verb + "` is for embedded store folders; "
        + at.location().text() + " is a " + at.kind().name() + " store, with no journal to"
        + " rebuild or salvage from: restore it from the server's backups");
  }

  /** A rebuild's progress, as a line redrawn on stderr when it is a terminal. */
  static RebuildProgress progress(PrintWriter err, String what) {
    ProgressLine line = ProgressLine.onStderr(err);
    return (done, total) -> line.show(what + ":", done, total);
  }
}
