package dev.fsm.control;

import dev.fsm.control.wire.AllVersions;
import dev.fsm.control.wire.Breakers;
import dev.fsm.control.wire.Counts;
import dev.fsm.control.wire.Errors;
import dev.fsm.control.wire.ExportPageRequest;
import dev.fsm.control.wire.Get;
import dev.fsm.control.wire.Hello;
import dev.fsm.control.wire.History;
import dev.fsm.control.wire.ImportTasks;
import dev.fsm.control.wire.ImportVersion;
import dev.fsm.control.wire.Ids;
import dev.fsm.control.wire.ListTasks;
import dev.fsm.control.wire.MachineNames;
import dev.fsm.control.wire.Purge;
import dev.fsm.control.wire.RecentlyChanged;
import dev.fsm.control.wire.Request;
import dev.fsm.control.wire.Runners;
import dev.fsm.control.wire.Send;
import dev.fsm.control.wire.SendAll;
import dev.fsm.control.wire.Signal;
import dev.fsm.control.wire.Start;
import dev.fsm.control.wire.Stats;
import dev.fsm.control.wire.TakenIds;
import dev.fsm.control.wire.Upgrade;
import dev.fsm.control.wire.VersionCounts;
import dev.fsm.control.wire.Versions;
import dev.fsm.engine.ErrorReport;
import dev.fsm.engine.StateStats;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.operations.MachineBreaker;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.Operations;
import dev.fsm.operations.PurgeReport;
import dev.fsm.operations.RunnerReport;
import dev.fsm.operations.SendOptions;
import dev.fsm.operations.TaskSelector;
import dev.fsm.operations.UpgradeReport;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.PurgeQuery;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.VersionCount;
import dev.fsm.store.transfer.ExportPage;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * An {@link Operations} whose store is owned by another process ({@code fsm run},
 * {@code fsm shell}): each call is one {@link Request} over the store's control socket. It throws
 * what the owner's operations threw, with the same message, and an {@link dev.fsm.FsmException}
 * when the owner stops answering (silent for {@value #SILENCE_SECONDS} s; owners send heartbeats
 * while long requests run) or hangs up. Calls are serialised; open one per thread for parallel
 * requests.
 */
public final class SocketControl implements Operations {

  static final long SILENCE_SECONDS = 15;

  private final ClientConnection connection;

  private SocketControl(ClientConnection connection) {
    this.connection = connection;
  }

  /** Connects to the owner of the store, if one answers on its socket. */
  public static Optional<SocketControl> connect(Path storeFolder) {
    return connect(storeFolder, SILENCE_SECONDS * 1_000_000_000L);
  }

  static Optional<SocketControl> connect(Path storeFolder, long silenceNanos) {
    Path socket = SocketLocation.forClient(storeFolder);
    ClientConnection connection = socket == null ? null
        : ClientConnection.open(socket, silenceNanos);
    if (connection == null) {
      return Optional.empty();
    }
    try {
      connection.owner(connection.call(new Hello()).owner());
      return Optional.of(new SocketControl(connection));
    } catch (IOException e) {
      // Accepted, then gone: an owner on its way out. The caller opens the store itself.
      connection.close();
      return Optional.empty();
    }
  }

  @Override
  public List<Task> start(MachineSource machine, List<NewTask> tasks) {
    return call(new Start(machine, tasks));
  }

  @Override
  public Task send(String id, Command command, SendOptions options) {
    return call(new Send(id, command, options));
  }

  @Override
  public BulkSendReport sendAll(TaskSelector selector, Command command, SendOptions options,
      boolean dryRun) {
    return call(new SendAll(selector, command, options, dryRun));
  }

  @Override
  public Task signal(String id, String event, String context) {
    return call(new Signal(id, event, context));
  }

  @Override
  public Optional<Task> get(String id) {
    return call(new Get(id));
  }

  @Override
  public List<Transition> history(String id) {
    return call(new History(id));
  }

  @Override
  public List<Task> list(TaskQuery query, boolean contexts) {
    return call(new ListTasks(query, contexts));
  }

  @Override
  public List<Task> recentlyChanged(TaskQuery filter) {
    return call(new RecentlyChanged(filter));
  }

  @Override
  public List<String> idsStartingWith(String prefix, int limit) {
    return call(new Ids(prefix, limit));
  }

  @Override
  public List<TaskCount> counts() {
    return call(new Counts());
  }

  @Override
  public List<StateStats> stats(String machine) {
    return call(new Stats(machine));
  }

  @Override
  public ErrorReport errors(ErrorQuery query, int limit) {
    return call(Errors.of(query, limit));
  }

  @Override
  public PurgeReport purge(PurgeQuery query) {
    return call(Purge.of(query));
  }

  @Override
  public List<MachineVersion> versions(String machine) {
    return call(new Versions(machine));
  }

  @Override
  public UpgradeReport upgrade(MachineSource source, boolean dryRun) {
    return call(new Upgrade(source, dryRun));
  }

  @Override
  public List<VersionCount> versionCounts(String machine) {
    return call(new VersionCounts(machine));
  }

  @Override
  public List<String> machineNames() {
    return call(new MachineNames());
  }

  @Override
  public List<MachineBreaker> breakers() {
    return call(new Breakers());
  }

  @Override
  public RunnerReport runners() {
    return call(new Runners());
  }

  @Override
  public List<MachineVersion> allVersions() {
    return call(new AllVersions());
  }

  @Override
  public ExportPage exportPage(String after, int limit) {
    return call(new ExportPageRequest(after, limit));
  }

  @Override
  public List<String> takenIds(List<String> ids) {
    return call(new TakenIds(ids));
  }

  @Override
  public MachineVersion importVersion(String machine, String definition, Instant registered) {
    return call(new ImportVersion(machine, definition, registered));
  }

  @Override
  public void importTasks(List<TaskHistory> tasks) {
    call(new ImportTasks(tasks));
  }

  /** One request and its answer; a failed connection becomes the exception to throw. */
  private synchronized <R> R call(Request<R> request) {
    try {
      return connection.call(request);
    } catch (IOException e) {
      throw connection.lost(e, request.changes());
    }
  }

  /** The owner's role and pid, e.g. {@code runner pid 1234}. */
  @Override
  public String via() {
    return connection.owner();
  }

  /** Hangs up; the owner and its store carry on. */
  @Override
  public synchronized void close() {
    connection.close();
  }
}
