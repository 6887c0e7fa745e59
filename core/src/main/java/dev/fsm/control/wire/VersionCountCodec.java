package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.STATUS;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.store.VersionCount;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.util.List;

/** One machine version, state and status's task count on the wire. */
public final class VersionCountCodec implements Codec<VersionCount> {

  public static final Codec<List<VersionCount>> LIST = Codec.list(new VersionCountCodec());

  private VersionCountCodec() {}

  @Override
  public void write(JsonGenerator g, VersionCount c) throws IOException {
    g.writeStartObject();
    STRING.write(g, "machine", c.machine());
    STRING.write(g, "version", c.version());
    STRING.write(g, "state", c.state());
    STATUS.write(g, "status", c.status());
    g.writeNumberField("count", c.count());
    g.writeEndObject();
  }

  @Override
  public VersionCount read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String machine = null;
    String version = null;
    String state = null;
    TaskStatus status = null;
    long count = 0;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "machine" -> machine = string(p);
        case "version" -> version = string(p);
        case "state" -> state = string(p);
        case "status" -> status = STATUS.read(p);
        case "count" -> count = p.getLongValue();
        default -> p.skipChildren();
      }
    }
    return new VersionCount(machine, version, state, status, count);
  }
}
