package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * How one type of value travels: its writer and its reader side by side, so the value's wire shape
 * is written in one place. Values are written straight to the socket, so a bulk start of 100k
 * tasks never exists as one string in memory. Implementations are classes, not lambdas: a
 * lambda's first use costs the client start-up time.
 */
public interface Codec<T> {

  /** Writes the value where the generator stands (an array item or after a field name). */
  void write(JsonGenerator g, T value) throws IOException;

  /**
   * Reads a value; the parser stands on its first token and is left on its last. Fields of an
   * object may come in any order and unknown ones are skipped.
   */
  T read(JsonParser p) throws IOException;

  /** Writes the value as the object field {@code name}. */
  default void write(JsonGenerator g, String name, T value) throws IOException {
    g.writeFieldName(name);
    write(g, value);
  }

  /** A JSON array of values of this codec. */
  static <T> Codec<List<T>> list(Codec<T> items) {
    return new ListCodec<>(items);
  }

  /** The value or JSON null for an empty optional. */
  static <T> Codec<Optional<T>> optional(Codec<T> value) {
    return new OptionalCodec<>(value);
  }
}
