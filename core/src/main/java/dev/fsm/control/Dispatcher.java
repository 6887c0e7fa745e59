package dev.fsm.control;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.FsmException;
import dev.fsm.engine.StateStats;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.operations.Operations;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.TaskCount;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Runs a request against the owner's {@link Control}. The delegate is called first and the
 * returned {@link Reply} only writes its result, so nothing reaches the client before the
 * delegate's change is durable.
 */
final class Dispatcher {

  /** Writes a finished request's result. */
  interface Reply {
    void write(JsonGenerator g) throws IOException;
  }

  private final Operations delegate;
  private final String owner;

  Dispatcher(Operations delegate, String owner) {
    this.delegate = delegate;
    this.owner = owner;
  }

  Reply dispatch(Request r) {
    String op = r.op == null ? "" : r.op;
    switch (op) {
      case Wire.HELLO: {
        long pid = ProcessHandle.current().pid();
        return g -> {
          g.writeStartObject();
          g.writeNumberField("pid", pid);
          g.writeStringField("owner", owner);
          g.writeEndObject();
        };
      }
      case Wire.START: {
        List<Task> started = delegate.start(r.source, r.tasks == null ? List.of() : r.tasks);
        return g -> WireWriter.tasks(g, started);
      }
      case Wire.SEND: {
        Task task = delegate.send(r.id, r.command, r.until, r.reason);
        return g -> WireWriter.task(g, task);
      }
      case Wire.SEND_ALL: {
        BulkSendReport report = delegate.sendAll(r.selector, r.command, r.until, r.reason,
            r.dryRun);
        return g -> WireWriter.report(g, report);
      }
      case Wire.SIGNAL: {
        Task task = delegate.signal(r.id, r.event, r.context);
        return g -> WireWriter.task(g, task);
      }
      case Wire.GET: {
        Optional<Task> task = delegate.get(r.id);
        return g -> WireWriter.task(g, task.orElse(null));
      }
      case Wire.HISTORY: {
        List<Transition> history = delegate.history(r.id);
        return g -> WireWriter.transitions(g, history);
      }
      case Wire.LIST: {
        List<Task> tasks = delegate.list(r.query);
        return g -> WireWriter.tasks(g, tasks);
      }
      case Wire.IDS: {
        List<String> ids = delegate.idsStartingWith(r.prefix, r.limit);
        return g -> WireWriter.strings(g, ids);
      }
      case Wire.COUNTS: {
        List<TaskCount> counts = delegate.counts();
        return g -> WireWriter.counts(g, counts);
      }
      case Wire.STATS: {
        List<StateStats> stats = delegate.stats(r.machine);
        return g -> WireWriter.stats(g, stats);
      }
      case Wire.VERSIONS: {
        List<MachineVersion> versions = delegate.versions(r.machine);
        return g -> WireWriter.versions(g, versions);
      }
      case Wire.MACHINE_NAMES: {
        List<String> names = delegate.machineNames();
        return g -> WireWriter.strings(g, names);
      }
      default:
        throw new FsmException(owner + " does not know the control operation `" + op
            + "`; use the same fsm version for both");
    }
  }
}
