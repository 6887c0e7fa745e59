package dev.fsm.control.wire;

import static dev.fsm.control.wire.Wire.nextField;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.operations.Operations;
import java.io.IOException;

/** The first request on a connection: who serves the store, to name it in messages. */
public record Hello() implements Request<Hello.Greeting> {

  static final String OP = "hello";

  /** The server's answer: its pid and how it names itself, e.g. {@code runner pid 1234}. */
  public record Greeting(long pid, String owner) {}

  @Override
  public String op() {
    return OP;
  }

  @Override
  public boolean changes() {
    return false;
  }

  @Override
  public void writeArguments(JsonGenerator g) {
    // No arguments.
  }

  @Override
  public Codec<Greeting> result() {
    return GreetingCodec.GREETING;
  }

  @Override
  public Greeting apply(Operations operations, String owner) {
    return new Greeting(ProcessHandle.current().pid(), owner);
  }

  private static final class GreetingCodec implements Codec<Greeting> {

    static final GreetingCodec GREETING = new GreetingCodec();

    @Override
    public void write(JsonGenerator g, Greeting greeting) throws IOException {
      g.writeStartObject();
      g.writeNumberField("pid", greeting.pid());
      g.writeStringField("owner", greeting.owner());
      g.writeEndObject();
    }

    @Override
    public Greeting read(JsonParser p) throws IOException {
      Wire.expect(p, JsonToken.START_OBJECT);
      long pid = 0;
      String owner = null;
      while (nextField(p)) {
        switch (p.currentName()) {
          case "pid" -> pid = p.getLongValue();
          case "owner" -> owner = Wire.string(p);
          default -> p.skipChildren();
        }
      }
      return new Greeting(pid, owner);
    }
  }
}
