package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.INSTANT;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.operations.NewTask;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/** A task to create, as a start request carries it. */
public final class NewTaskCodec implements Codec<NewTask> {

  public static final Codec<List<NewTask>> LIST = Codec.list(new NewTaskCodec());

  private NewTaskCodec() {}

  @Override
  public void write(JsonGenerator g, NewTask t) throws IOException {
    g.writeStartObject();
    STRING.write(g, "id", t.id());
    STRING.write(g, "context", t.context());
    INSTANT.write(g, "at", t.at());
    g.writeEndObject();
  }

  @Override
  public NewTask read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String id = null;
    String context = null;
    Instant at = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "id" -> id = string(p);
        case "context" -> context = string(p);
        case "at" -> at = INSTANT.read(p);
        default -> p.skipChildren();
      }
    }
    return new NewTask(id, context, at);
  }
}
