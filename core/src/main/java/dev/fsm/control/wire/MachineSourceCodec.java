package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.operations.MachineSource;
import java.io.IOException;
import java.nio.file.Path;

/** A machine's name, file and text, as a start request carries them. */
public final class MachineSourceCodec implements Codec<MachineSource> {

  public static final Codec<MachineSource> SOURCE = new MachineSourceCodec();

  private MachineSourceCodec() {}

  @Override
  public void write(JsonGenerator g, MachineSource s) throws IOException {
    g.writeStartObject();
    STRING.write(g, "name", s.name());
    STRING.write(g, "file", s.file() == null ? null : s.file().toString());
    STRING.write(g, "text", s.text());
    g.writeEndObject();
  }

  @Override
  public MachineSource read(JsonParser p) throws IOException {
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
}
