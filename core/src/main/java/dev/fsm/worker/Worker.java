package dev.fsm.worker;

import dev.fsm.action.ActionOptions;
import dev.fsm.action.ActionRunner;
import dev.fsm.action.Actions;
import dev.fsm.action.ProgramLedger;
import dev.fsm.control.ControlServer;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.engine.RunListener;
import dev.fsm.engine.Runner;
import dev.fsm.engine.RunnerOptions;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.Ownership;
import dev.fsm.store.RunnerRecord;
import dev.fsm.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A store put to work: its machine library, the actions and the runner that runs them, the
 * operator service over it and, for a store with one owner, the control socket that serves the
 * other processes. Built with {@link #builder}; closing closes them all, the socket first and the
 * store last.
 */
public final class Worker implements AutoCloseable {

  private final Store store;
  private final MachineLibrary machines;
  private final Actions actions;
  private final Runner runner;
  private final StoreOperations operations;
  private final ControlServer server;
  private final int leftoversStopped;
  private final Retention retention;
  private final RunnerHeartbeat heartbeat;

  private Worker(Store store, MachineLibrary machines, Actions actions, Runner runner,
      StoreOperations operations, ControlServer server, int leftoversStopped,
      Retention retention, RunnerHeartbeat heartbeat) {
    this.store = store;
    this.machines = machines;
    this.actions = actions;
    this.runner = runner;
    this.operations = operations;
    this.server = server;
    this.leftoversStopped = leftoversStopped;
    this.retention = retention;
    this.heartbeat = heartbeat;
  }

  /** Starts assembling a worker on {@code store}, which the worker closes from now on. */
  public static Builder builder(Store store) {
    return new Builder(store);
  }

  /** The store the worker works on. */
  public Store store() {
    return store;
  }

  /** The machines its tasks run. */
  public MachineLibrary machines() {
    return machines;
  }

  /** The runner; absent for a worker built without one (one that only serves operators). */
  public Optional<Runner> runner() {
    return Optional.ofNullable(runner);
  }

  /** The operator service over the store, told of changes to running tasks by the runner. */
  public StoreOperations operations() {
    return operations;
  }

  /** How many programs a killed runner had left running that building this worker stopped. */
  public int leftoversStopped() {
    return leftoversStopped;
  }

  /** The control server, while it serves the store's socket. */
  public Optional<ControlServer> server() {
    return Optional.ofNullable(server);
  }

  /** Stops purging by retention and serving the socket, then closes the actions and the store. */
  @Override
  public void close() {
    try {
      if (heartbeat != null) {
        heartbeat.close();
      }
      if (retention != null) {
        retention.close();
      }
      if (server != null) {
        server.close();
      }
      operations.close();
      if (actions != null) {
        actions.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      store.close();
    }
  }

  /** How a worker is put together; every part but the store has a default. */
  public static final class Builder {
    private final Store store;
    private Path machines = Path.of(".");
    private ActionOptions actionOptions = ActionOptions.DEFAULTS;
    private Path ledger;
    private UnaryOperator<ActionRunner> actionsAround = UnaryOperator.identity();
    private RunnerOptions runnerOptions;
    private RunListener listener = RunListener.NONE;
    private Clock clock;
    private String operator = StoreOperations.localOperator();
    private Ownership ownership = Ownership.SHARED;
    private Path socketFolder;
    private String role;
    private String host;

    private Builder(Store store) {
      this.store = Objects.requireNonNull(store, "store");
      this.clock = store.clock();
    }

    /** The folder of machine files (default: the working folder). */
    public Builder machines(Path folder) {
      this.machines = Objects.requireNonNull(folder, "folder");
      return this;
    }

    /** How actions run (default: {@link ActionOptions#DEFAULTS}). */
    public Builder actions(ActionOptions options) {
      this.actionOptions = Objects.requireNonNull(options, "options");
      return this;
    }

    /**
     * Records running programs in {@code folder} (see {@link ProgramLedger}), first stopping
     * those that a killed runner left running there.
     */
    public Builder programLedger(Path folder) {
      this.ledger = Objects.requireNonNull(folder, "folder");
      return this;
    }

    /** Wraps the action runner the runner uses, such as a benchmark's hook. */
    public Builder actionsAround(UnaryOperator<ActionRunner> around) {
      this.actionsAround = Objects.requireNonNull(around, "around");
      return this;
    }

    /** Runs tasks with these options, telling {@code listener}; without it, no runner. */
    public Builder runner(RunnerOptions options, RunListener listener) {
      this.runnerOptions = Objects.requireNonNull(options, "options");
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Keeps the runner's record in the store ({@code fsm runners}) as running on {@code host},
     * in this process, until it closes; without it, the runner leaves no record.
     */
    public Builder announce(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /** The clock of the runner and operator service (default: the store's). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Who the operator service's commands come from in a task's history. */
    public Builder operator(String operator) {
      this.operator = Objects.requireNonNull(operator, "operator");
      return this;
    }

    /**
     * Serves the operator service on a control socket beside {@code socketFolder}, shown to
     * clients as {@code role}, when {@code ownership} is {@link Ownership#OWNER_WITH_SOCKET};
     * a shared store needs none, as every process opens it.
     */
    public Builder serve(Ownership ownership, Path socketFolder, String role) {
      this.ownership = Objects.requireNonNull(ownership, "ownership");
      this.socketFolder = Objects.requireNonNull(socketFolder, "socketFolder");
      this.role = Objects.requireNonNull(role, "role");
      return this;
    }

    /**
     * Assembles the worker and starts its control server, if any; on failure closes what it
     * made and the store.
     */
    public Worker build() {
      Actions actions = null;
      try {
        MachineLibrary library = new MachineLibrary(store, machines);
        Runner runner = null;
        int leftovers = 0;
        if (runnerOptions != null) {
          ActionOptions options = actionOptions;
          if (ledger != null) {
            leftovers = ProgramLedger.in(ledger).stopLeftovers();
            options = options.withLedger(ledger);
          }
          actions = new Actions(options, listener::problem);
          runner = new Runner(store, library, actionsAround.apply(actions), runnerOptions, clock,
              listener, actions.deadlines());
          // A shared store's other processes reach this runner through the store's events.
          store.listen(new OthersHeard(store, runner, runner::holds));
        }
        OperatorListener heard = runner == null ? OperatorListener.NONE : runner;
        // Operators' commands reach running actions through the runner.
        StoreOperations operations = new StoreOperations(store, library, clock, operator, heard,
            false);
        ControlServer server = socketFolder != null && ownership == Ownership.OWNER_WITH_SOCKET
            ? ControlServer.start(socketFolder, operations, role) : null;
        // Runners purge by their machines' retention; a worker that only serves does not.
        Retention retention = runner == null ? null
            : Retention.start(store, library, clock, listener);
        RunnerHeartbeat heartbeat = runner == null || host == null ? null
            : RunnerHeartbeat.start(store, runner, runnerOptions, host, clock, listener,
                RunnerRecord.HEARTBEAT);
        return new Worker(store, library, actions, runner, operations, server, leftovers,
            retention, heartbeat);
      } catch (RuntimeException | Error e) {
        closeQuietly(actions, e);
        store.close();
        throw e;
      }
    }

    private static void closeQuietly(Actions actions, Throwable failure) {
      if (actions == null) {
        return;
      }
      try {
        actions.close();
      } catch (IOException | RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }
}
