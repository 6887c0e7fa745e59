package dev.fsm.cli.common;

import dev.fsm.access.StoreAccess;
import dev.fsm.operations.Operations;
import dev.fsm.store.StorePurpose;
import java.util.function.Consumer;

/**
 * How the task verbs reach tasks: {@link StoreAccess} with the global options, saying on stderr
 * whom a verb waits for when the store is held.
 */
public final class TaskAccess {

  private TaskAccess() {}

  /**
   * The operator service for a verb that reads tasks, or that creates them when {@code create}.
   *
   * @param verb the verb, e.g. {@code fsm ls}, shown to others who find the store in use
   * @param create whether a missing store may be created (only {@code start} and {@code run})
   */
  public static Operations open(GlobalOptions global, String verb, boolean create) {
    return open(global, create ? StorePurpose.WRITE : StorePurpose.READ, verb, create);
  }

  /** The operator service for a verb that changes existing tasks, such as {@code fsm send}. */
  public static Operations openToWrite(GlobalOptions global, String verb) {
    return open(global, StorePurpose.WRITE, verb, false);
  }

  private static Operations open(GlobalOptions global, StorePurpose purpose, String verb,
      boolean create) {
    StoreAccess access = StoreAccess.standard();
    StoreAccess.Located at = access.locate(global.store(), purpose, verb, create);
    return access.operations(at, purpose, verb, create, global.machines(), notice(global));
  }

  /**
   * The store {@code --store} names for a task verb, checked: refused when it is not a store
   * and, unless {@code create}, when there is none.
   */
  public static StoreAccess.Located locate(GlobalOptions global, StorePurpose purpose,
      String verb, boolean create) {
    return StoreAccess.standard().locate(global.store(), purpose, verb, create);
  }

  /** Where a verb waiting for the store says, once, whom it waits for. */
  public static Consumer<String> notice(GlobalOptions global) {
    return notice -> {
      global.err().println("fsm: " + notice);
      global.err().flush();
    };
  }
}
