package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.INSTANT;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.operations.MachineBreaker;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/** One machine's breaker on the wire. */
final class MachineBreakerCodec implements Codec<MachineBreaker> {

  static final Codec<List<MachineBreaker>> LIST = Codec.list(new MachineBreakerCodec());

  private MachineBreakerCodec() {}

  @Override
  public void write(JsonGenerator g, MachineBreaker b) throws IOException {
    g.writeStartObject();
    STRING.write(g, "machine", b.machine());
    STRING.write(g, "state", b.state());
    g.writeNumberField("errorRate", b.errorRate());
    g.writeNumberField("attempts", b.attempts());
    if (b.until() != null) {
      INSTANT.write(g, "until", b.until());
    }
    g.writeEndObject();
  }

  @Override
  public MachineBreaker read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String machine = null;
    String state = null;
    double errorRate = 0;
    int attempts = 0;
    Instant until = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "machine" -> machine = string(p);
        case "state" -> state = string(p);
        case "errorRate" -> errorRate = p.getDoubleValue();
        case "attempts" -> attempts = p.getIntValue();
        case "until" -> until = INSTANT.read(p);
        default -> p.skipChildren();
      }
    }
    return new MachineBreaker(machine, state, errorRate, attempts, until);
  }
}
