package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * One named argument of a request: a field of the request object, its codec, and the value it
 * takes when a request leaves it out.
 */
public record Arg<T>(String name, Codec<T> codec, T absent) {

  /** Writes the argument as a field of the request object. */
  public void write(JsonGenerator g, T value) throws IOException {
    codec.write(g, name, value);
  }
}
