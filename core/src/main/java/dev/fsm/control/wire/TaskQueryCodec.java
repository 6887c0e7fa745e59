package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.STATUS;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.control.wire.Wire.ProtocolException;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;

/** A page of a task listing; empty filters travel as null, the order as a lower-case word. */
public final class TaskQueryCodec implements Codec<TaskQuery> {

  public static final Codec<TaskQuery> QUERY = new TaskQueryCodec();

  private TaskQueryCodec() {}

  @Override
  public void write(JsonGenerator g, TaskQuery q) throws IOException {
    g.writeStartObject();
    STRING.write(g, "machine", q.machine().orElse(null));
    STRING.write(g, "state", q.state().orElse(null));
    STATUS.write(g, "status", q.status().orElse(null));
    STRING.write(g, "afterId", q.afterId().orElse(null));
    g.writeNumberField("limit", q.limit());
    g.writeStringField("order", q.order().name().toLowerCase(Locale.ROOT));
    g.writeEndObject();
  }

  @Override
  public TaskQuery read(JsonParser p) throws IOException {
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
        case "status" -> status = STATUS.read(p);
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
