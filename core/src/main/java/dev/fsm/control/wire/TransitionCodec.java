package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.INSTANT;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/** A task's history entry on the wire. */
public final class TransitionCodec implements Codec<Transition> {

  public static final Codec<List<Transition>> LIST = Codec.list(new TransitionCodec());

  private TransitionCodec() {}

  @Override
  public void write(JsonGenerator g, Transition t) throws IOException {
    g.writeStartObject();
    INSTANT.write(g, "time", t.time());
    STRING.write(g, "from", t.from());
    STRING.write(g, "event", t.event());
    STRING.write(g, "to", t.to());
    g.writeNumberField("durationMillis", t.durationMillis());
    g.writeNumberField("attempt", t.attempt());
    STRING.write(g, "by", t.by());
    STRING.write(g, "reason", t.reason());
    g.writeEndObject();
  }

  @Override
  public Transition read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    Instant time = null;
    String from = null;
    String event = null;
    String to = null;
    long durationMillis = 0;
    int attempt = 0;
    String by = null;
    String reason = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "time" -> time = INSTANT.read(p);
        case "from" -> from = string(p);
        case "event" -> event = string(p);
        case "to" -> to = string(p);
        case "durationMillis" -> durationMillis = p.getLongValue();
        case "attempt" -> attempt = p.getIntValue();
        case "by" -> by = string(p);
        case "reason" -> reason = string(p);
        default -> p.skipChildren();
      }
    }
    return new Transition(time, from, event, to, durationMillis, attempt, by, reason);
  }
}
