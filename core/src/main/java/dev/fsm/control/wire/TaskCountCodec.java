package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.STATUS;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.store.TaskCount;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.util.List;

/** One machine, state and status's task count on the wire. */
public final class TaskCountCodec implements Codec<TaskCount> {

  public static final Codec<List<TaskCount>> LIST = Codec.list(new TaskCountCodec());

  private TaskCountCodec() {}

  @Override
  public void write(JsonGenerator g, TaskCount c) throws IOException {
    g.writeStartObject();
    STRING.write(g, "machine", c.machine());
    STRING.write(g, "state", c.state());
    STATUS.write(g, "status", c.status());
    g.writeNumberField("count", c.count());
    g.writeEndObject();
  }

  @Override
  public TaskCount read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String machine = null;
    String state = null;
    TaskStatus status = null;
    long count = 0;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "machine" -> machine = string(p);
        case "state" -> state = string(p);
        case "status" -> status = STATUS.read(p);
        case "count" -> count = p.getLongValue();
        default -> p.skipChildren();
      }
    }
    return new TaskCount(machine, state, status, count);
  }
}
