package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.STATUS;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.operations.TaskSelector;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.util.Optional;

/** Which tasks a bulk send reaches; an empty state or status travels as null. */
public final class TaskSelectorCodec implements Codec<TaskSelector> {

  public static final Codec<TaskSelector> SELECTOR = new TaskSelectorCodec();

  private TaskSelectorCodec() {}

  @Override
  public void write(JsonGenerator g, TaskSelector s) throws IOException {
    g.writeStartObject();
    STRING.write(g, "machine", s.machine());
    STRING.write(g, "state", s.state().orElse(null));
    STATUS.write(g, "status", s.status().orElse(null));
    g.writeEndObject();
  }

  @Override
  public TaskSelector read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String machine = null;
    String state = null;
    TaskStatus status = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "machine" -> machine = string(p);
        case "state" -> state = string(p);
        case "status" -> status = STATUS.read(p);
        default -> p.skipChildren();
      }
    }
    return new TaskSelector(machine, Optional.ofNullable(state), Optional.ofNullable(status));
  }
}
