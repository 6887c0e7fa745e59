package dev.fsm.control;

import static dev.fsm.control.WireReader.nextField;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import dev.fsm.engine.StateStats;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.Operations;
import dev.fsm.operations.TaskSelector;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A {@link Control} whose store is owned by another process ({@code fsm run}, {@code fsm shell}):
 * each call is one request over the store's control socket. It throws what the owner's control
 * threw, with the same message, and an {@link dev.fsm.FsmException} when the owner stops
 * answering (silent for {@value #SILENCE_SECONDS} s; owners send heartbeats while long requests
 * run) or hangs up. Calls are serialised; open one per thread for parallel requests.
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
      JsonParser p = connection.finish(connection.begin(Wire.HELLO));
      while (nextField(p)) {
        if (p.currentName().equals("owner")) {
          connection.owner(WireReader.string(p));
        } else {
          p.skipChildren();
        }
      }
      connection.done();
      return Optional.of(new SocketControl(connection));
    } catch (IOException e) {
      // Accepted, then gone: an owner on its way out. The caller opens the store itself.
      connection.close();
      return Optional.empty();
    }
  }

  @Override
  public synchronized List<Task> start(MachineSource machine, List<NewTask> tasks) {
    try {
      JsonGenerator g = connection.begin(Wire.START);
      g.writeFieldName("source");
      WireWriter.source(g, machine);
      g.writeFieldName("tasks");
      WireWriter.newTasks(g, tasks);
      List<Task> started = WireReader.tasks(connection.finish(g));
      connection.done();
      return started;
    } catch (IOException e) {
      throw connection.lost(e);
    }
  }

  @Override
  public synchronized Task send(String id, Command command, Instant until, String reason) {
    try {
      JsonGenerator g = connection.begin(Wire.SEND);
      WireWriter.string(g, "id", id);
      WireWriter.string(g, "command", command.word());
      WireWriter.instant(g, "until", until);
      WireWriter.string(g, "reason", reason);
      return task(g);
    } catch (IOException e) {
      throw connection.lost(e);
    }
  }

  @Override
  public synchronized BulkSendReport sendAll(TaskSelector selector, Command command,
      Instant until, String reason, boolean dryRun) {
    try {
      JsonGenerator g = connection.begin(Wire.SEND_ALL);
      g.writeFieldName("selector");
      WireWriter.selector(g, selector);
      WireWriter.string(g, "command", command.word());
      WireWriter.instant(g, "until", until);
      WireWriter.string(g, "reason", reason);
      g.writeBooleanField("dryRun", dryRun);
      BulkSendReport report = ResultReader.report(connection.finish(g));
      connection.done();
      return report;
    } catch (IOException e) {
      throw connection.lost(e);
    }
  }

  @Override
  public synchronized Task signal(String id, String event, String context) {
    try {
      JsonGenerator g = connection.begin(Wire.SIGNAL);
      WireWriter.string(g, "id", id);
      WireWriter.string(g, "event", event);
      WireWriter.string(g, "context", context);
      return task(g);
    } catch (IOException e) {
      throw connection.lost(e);
    }
  }

  @Override
  public synchronized Optional<Task> get(String id) {
    try {
      JsonGenerator g = connection.begin(Wire.GET);
      WireWriter.string(g, "id", id);
      return Optional.ofNullable(task(g));
    } catch (IOException e) {
      throw connection.lost(e);
    }
  }

  private Task task(JsonGenerator request) throws IOException {
    Task task = WireReader.task(connection.finish(request));
    connection.done();
    return task;
  }

  @Override
  public synchronized List<Transition> history(String id) {
    try {
      JsonGenerator g = connection.begin(Wire.HISTORY);
      WireWriter.string(g, "id", id);
      List<Transition> history = ResultReader.transitions(connection.finish(g));
      connection.done();
      return history;
    } catch (IOException e) {
      throw connection.lost(e);
    }
  }

  @Override
  public synchronized List<Task> list(TaskQuery query) {
    try {
      JsonGenerator g = connection.begin(Wire.LIST);
      g.writeFieldName("query");
      WireWriter.query(g, query);
      List<Task> tasks = WireReader.tasks(connection.finish(g));
      connection.done();
      return tasks;
    } catch (IOException e) {
      throw connection.lost(e);
    }
  }

  @Override
  public synchronized List<String> idsStartingWith(String prefix, int limit) {
    try {
      JsonGenerator g = connection.begin(Wire.IDS);
      WireWriter.string(g, "prefix", prefix);
      g.writeNumberField("limit", limit);
      return strings(g);
    } catch (IOException e) {
      throw connection.lost(e);
    }
  }

  @Override
  public synchronized List<TaskCount> counts() {
    try {
      List<TaskCount> counts = ResultReader.counts(connection.finish(
          connection.begin(Wire.COUNTS)));
      connection.done();
      return counts;
    } catch (IOException e) {
      throw connection.lost(e);
    }
  }

  @Override
  public synchronized List<StateStats> stats(String machine) {
    try {
      JsonGenerator g = connection.begin(Wire.STATS);
      WireWriter.string(g, "machine", machine);
      List<StateStats> stats = ResultReader.stats(connection.finish(g));
      connection.done();
      return stats;
    } catch (IOException e) {
      throw connection.lost(e);
    }
  }

  @Override
  public synchronized List<MachineVersion> versions(String machine) {
    try {
      JsonGenerator g = connection.begin(Wire.VERSIONS);
      WireWriter.string(g, "machine", machine);
      List<MachineVersion> versions = ResultReader.versions(connection.finish(g));
      connection.done();
      return versions;
    } catch (IOException e) {
      throw connection.lost(e);
    }
  }

  @Override
  public synchronized List<String> machineNames() {
    try {
      return strings(connection.begin(Wire.MACHINE_NAMES));
    } catch (IOException e) {
      throw connection.lost(e);
    }
  }

  private List<String> strings(JsonGenerator request) throws IOException {
    List<String> strings = ResultReader.strings(connection.finish(request));
    connection.done();
    return strings;
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
