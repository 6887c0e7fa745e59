package dev.fsm.control;

import static dev.fsm.control.WireReader.instant;
import static dev.fsm.control.WireReader.nextField;
import static dev.fsm.control.WireReader.nextItem;
import static dev.fsm.control.WireReader.status;
import static dev.fsm.control.WireReader.string;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.control.Wire.ProtocolException;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.TaskSelector;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Command;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One request as the server read it: the operation and whichever arguments it carries. Argument
 * names are distinct across operations, so one holder reads them all in any order.
 */
final class Request {

  int version;
  String op;
  String id;
  Command command;
  Instant until;
  String reason;
  boolean dryRun;
  TaskSelector selector;
  String event;
  String context;
  TaskQuery query;
  String prefix;
  int limit;
  String machine;
  MachineSource source;
  List<NewTask> tasks;

  /** Reads a request object; the parser stands on its start and is left on its end. */
  static Request read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    Request r = new Request();
    while (nextField(p)) {
      switch (p.currentName()) {
        case "v" -> r.version = p.getIntValue();
        case "op" -> r.op = string(p);
        case "id" -> r.id = string(p);
        case "command" -> r.command = command(string(p));
        case "until" -> r.until = instant(p);
        case "reason" -> r.reason = string(p);
        case "dryRun" -> r.dryRun = p.getBooleanValue();
        case "selector" -> r.selector = selector(p);
        case "event" -> r.event = string(p);
        case "context" -> r.context = string(p);
        case "query" -> r.query = query(p);
        case "prefix" -> r.prefix = string(p);
        case "limit" -> r.limit = p.getIntValue();
        case "machine" -> r.machine = string(p);
        case "source" -> r.source = source(p);
        case "tasks" -> r.tasks = newTasks(p);
        default -> p.skipChildren();
      }
    }
    return r;
  }

  private static Command command(String word) throws ProtocolException {
    Optional<Command> command = word == null ? Optional.empty() : Command.parse(word);
    if (command.isEmpty()) {
      throw new ProtocolException("unknown command " + word);
    }
    return command.get();
  }

  private static MachineSource source(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String name = null;
    String file = null;
    String text = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "name" -> name = string(p);
        case "file" -> file = string(p);
        case "text" -> text = string(p);
        default -> p.skipChildren();
      }
    }
    return new MachineSource(name, file == null ? null : Path.of(file), text);
  }

  private static List<NewTask> newTasks(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_ARRAY);
    List<NewTask> tasks = new ArrayList<>();
    while (nextItem(p)) {
      String id = null;
      String context = null;
      Instant at = null;
      while (nextField(p)) {
        switch (p.currentName()) {
          case "id" -> id = string(p);
          case "context" -> context = string(p);
          case "at" -> at = instant(p);
          default -> p.skipChildren();
        }
      }
      tasks.add(new NewTask(id, context, at));
    }
    return tasks;
  }

  private static TaskSelector selector(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String machine = null;
    String state = null;
    TaskStatus status = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "machine" -> machine = string(p);
        case "state" -> state = string(p);
        case "status" -> status = status(p);
        default -> p.skipChildren();
      }
    }
    return new TaskSelector(machine, Optional.ofNullable(state), Optional.ofNullable(status));
  }

  private static TaskQuery query(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String machine = null;
    String state = null;
    TaskStatus status = null;
    String afterId = null;
    int limit = 0;
    TaskQuery.Order order = TaskQuery.Order.ASCENDING;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "machine" -> machine = string(p);
        case "state" -> state = string(p);
        case "status" -> status = status(p);
        case "afterId" -> afterId = string(p);
        case "limit" -> limit = p.getIntValue();
        case "order" -> order = order(string(p));
        default -> p.skipChildren();
      }
    }
    return new TaskQuery(Optional.ofNullable(machine), Optional.ofNullable(state),
        Optional.ofNullable(status), Optional.ofNullable(afterId), limit, order);
  }

  private static TaskQuery.Order order(String word) throws ProtocolException {
    for (TaskQuery.Order o : TaskQuery.Order.values()) {
      if (o.name().equalsIgnoreCase(word)) {
        return o;
      }
    }
    throw new ProtocolException("unknown order " + word);
  }
}
