package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.INSTANT;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.store.MachineVersion;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/** One registered version of a machine on the wire, its definition's text included. */
public final class MachineVersionCodec implements Codec<MachineVersion> {

  public static final Codec<MachineVersion> VERSION = new MachineVersionCodec();
  public static final Codec<List<MachineVersion>> LIST = Codec.list(VERSION);

  private MachineVersionCodec() {}

  @Override
  public void write(JsonGenerator g, MachineVersion v) throws IOException {
    g.writeStartObject();
    STRING.write(g, "machine", v.machine());
    STRING.write(g, "version", v.version());
    g.writeNumberField("number", v.number());
    INSTANT.write(g, "registered", v.registered());
    STRING.write(g, "definition", v.definition());
    g.writeEndObject();
  }

  @Override
  public MachineVersion read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String machine = null;
    String version = null;
    int number = 0;
    Instant registered = null;
    String definition = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "machine" -> machine = string(p);
        case "version" -> version = string(p);
        case "number" -> number = p.getIntValue();
        case "registered" -> registered = INSTANT.read(p);
        case "definition" -> definition = string(p);
        default -> p.skipChildren();
      }
    }
    return new MachineVersion(machine, version, number, registered, definition);
  }
}
