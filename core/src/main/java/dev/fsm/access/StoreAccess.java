package dev.fsm.access;

import dev.fsm.FsmException;
import dev.fsm.control.SocketControl;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.operations.Operations;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.Ownership;
import dev.fsm.store.Store;
import dev.fsm.store.StoreBusyException;
import dev.fsm.store.StoreKind;
import dev.fsm.store.StoreLocation;
import dev.fsm.store.StoreOpenOptions;
import dev.fsm.store.StorePurpose;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * How verbs reach a store: the kind that serves the location {@code --store} names, and for
 * that kind either the owner's control socket or the store opened in this process.
 */
public final class StoreAccess {

  private final List<StoreKind> kinds;

  /** Access through {@code kinds}, asked in order. */
  public StoreAccess(List<StoreKind> kinds) {
    this.kinds = List.copyOf(kinds);
  }

  /** Access through every kind fsm knows. */
  public static StoreAccess standard() {
    return new StoreAccess(StoreKinds.ALL);
  }

  /**
   * The store {@code text} names and the kind that serves it, refusing a location no kind
   * serves; nothing is checked on disk or server.
   */
  public Located find(String text, StorePurpose purpose, String verb) {
    StoreLocation location = StoreLocation.parse(text);
    for (StoreKind kind : kinds) {
      if (kind.accepts(location)) {
        return new Located(location, kind);
      }
    }
    throw unserved(location, purpose, verb);
  }

  /**
   * As {@link #find}, then refused when no store can be opened there for {@code purpose} (none
   * there and {@code create} false, or not a store), with a message saying what to do.
   */
  public Located locate(String text, StorePurpose purpose, String verb, boolean create) {
    Located at = find(text, purpose, verb);
    at.kind().check(at.location(), purpose, verb, create);
    return at;
  }

  /**
   * The operator service for a verb: the owner's socket when the kind has one owner and it
   * answers, else the store opened here (waiting in line behind short-lived commands, telling
   * {@code notice} once when that takes long).
   */
  public Operations operations(Located at, StorePurpose purpose, String verb, boolean create,
      Path machines, Consumer<String> notice) {
    StoreOpenOptions options = options(at, verb, create, notice);
    if (at.kind().ownership() == Ownership.SHARED) {
      return local(at, purpose, options, machines);
    }
    return Controls.open(at.socketFolder(), () -> local(at, purpose, options, machines));
  }

  /**
   * The store itself, opened here for {@code purpose}, waiting in line behind short-lived
   * commands. A store whose one owner serves it over its socket is refused, naming the owner,
   * as only {@code fsm run} opens a store for itself while others may use it.
   */
  public Store store(Located at, StorePurpose purpose, String verb, Consumer<String> notice) {
    return store(at, purpose, verb, purpose == StorePurpose.RUN, notice);
  }

  /**
   * As {@link #store(Located, StorePurpose, String, Consumer)}, creating a missing store when
   * {@code create} ({@code fsm store import}, a creating verb).
   */
  public Store store(Located at, StorePurpose purpose, String verb, boolean create,
      Consumer<String> notice) {
    StoreOpenOptions options = options(at, verb, create, notice);
    try {
      return at.kind().open(at.location(), purpose, options);
    } catch (StoreBusyException e) {
      throw busy(at, purpose, verb, e);
    }
  }

  /**
   * What to throw when {@code verb} found the store held: when a runner (or shell) serves it,
   * a refusal naming it and saying what to do, as it will not let go by itself; else {@code e}.
   */
  public static FsmException busy(Located at, StorePurpose purpose, String verb,
      StoreBusyException e) {
    if (at.kind().ownership() != Ownership.OWNER_WITH_SOCKET) {
      return e;
    }
    Optional<SocketControl> owner = SocketControl.connect(at.socketFolder());
    if (owner.isEmpty()) {
      return e;
    }
    String via = owner.get().via();
    owner.get().close();
    return new FsmException("store " + at.location().text() + " is already served by " + via
        + (purpose == StorePurpose.RUN
            ? "; one runner per embedded store: stop it first, or send it work with"
                + " `fsm start`"
            : "; `" + verb + "` needs the store to itself: stop the runner first, then run"
                + " it again"));
  }

  /**
   * How a verb opens the store here: waiting in line behind short-lived commands, telling
   * {@code notice} once when that takes long, and giving up the wait when the holder turns out
   * to serve its control socket.
   */
  public StoreOpenOptions options(Located at, String verb, boolean create,
      Consumer<String> notice) {
    return StoreOpenOptions.of(verb).create(create).inLine(notice, servedElsewhere(at));
  }

  private static Operations local(Located at, StorePurpose purpose, StoreOpenOptions options,
      Path machines) {
    Store store = at.kind().open(at.location(), purpose, options);
    return new StoreOperations(store, new MachineLibrary(store, machines), store.clock(),
        StoreOperations.localOperator(), OperatorListener.NONE, true);
  }

  /**
   * For a kind with one owner: whether the holder turns out to serve its control socket, so a
   * waiter stops waiting and uses it.
   */
  private static BooleanSupplier servedElsewhere(Located at) {
    if (at.kind().ownership() != Ownership.OWNER_WITH_SOCKET) {
      return () -> false;
    }
    Path folder = at.socketFolder();
    return () -> {
      Optional<SocketControl> owner = SocketControl.connect(folder);
      owner.ifPresent(SocketControl::close);
      return owner.isPresent();
    };
  }

  /** Why no kind serves {@code location}: a database store is not listed in this version. */
  private static FsmException unserved(StoreLocation location, StorePurpose purpose,
      String verb) {
    if (location instanceof StoreLocation.Database db) {
      return purpose == StorePurpose.CHECK
          ? new FsmException("`" + verb + "` is not supported yet for PostgreSQL stores ("
              + db.url() + "); it works on an embedded store folder, named with --store PATH")
          : new FsmException("PostgreSQL stores (" + db.url() + ") come in a later version of"
              + " fsm; use an embedded store folder with --store PATH");
    }
    return new FsmException("no kind of store fsm knows serves --store " + location.text());
  }

  /** A store's location and the kind that serves it. */
  public record Located(StoreLocation location, StoreKind kind) {

    /** Whether a store exists there now; never creates one. */
    public boolean exists() {
      return kind.exists(location);
    }

    /** The folder beside which the store's one owner serves its control socket. */
    public Path socketFolder() {
      return kind.socketFolder(location);
    }

    /** Whether other processes reach the store through one owner's socket. */
    public boolean hasOwner() {
      return kind.ownership() == Ownership.OWNER_WITH_SOCKET;
    }
  }
}
