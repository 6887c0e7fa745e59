package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Optional;

/** An optional value: the value itself, or JSON null when empty. */
final class OptionalCodec<T> implements Codec<Optional<T>> {

  private final Codec<T> value;

  OptionalCodec(Codec<T> value) {
    this.value = value;
  }

  @Override
  public void write(JsonGenerator g, Optional<T> v) throws IOException {
    if (v.isEmpty()) {
      g.writeNull();
    } else {
      value.write(g, v.get());
    }
  }

  @Override
  public Optional<T> read(JsonParser p) throws IOException {
    return p.currentToken() == JsonToken.VALUE_NULL ? Optional.empty() : Optional.of(value.read(p));
  }
}
