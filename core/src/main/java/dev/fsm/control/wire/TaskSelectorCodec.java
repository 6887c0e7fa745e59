package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.ShownStatusesCodec.STATUSES;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.operations.TaskSelector;
import dev.fsm.task.ShownStatus;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;

/** Which tasks a bulk send reaches; an empty state travels as null, the statuses as an array. */
public final class TaskSelectorCodec implements Codec<TaskSelector> {

  public static final Codec<TaskSelector> SELECTOR = new TaskSelectorCodec();

  private TaskSelectorCodec() {}

  @Override
  public void write(JsonGenerator g, TaskSelector s) throws IOException {
    g.writeStartObject();
    STRING.write(g, "machine", s.machine());
    STRING.write(g, "state", s.state().orElse(null));
    STATUSES.write(g, "statuses", s.statuses());
    g.writeEndObject();
  }

  @Override
  public TaskSelector read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String machine = null;
    String state = null;
    Set<ShownStatus> statuses = Set.of();
    while (nextField(p)) {
      switch (p.currentName()) {
        case "machine" -> machine = string(p);
        case "state" -> state = string(p);
        case "statuses" -> statuses = STATUSES.read(p);
        default -> p.skipChildren();
      }
    }
    return new TaskSelector(machine, Optional.ofNullable(state), statuses);
  }
}
