package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A list as a JSON array, read with a plain loop. */
final class ListCodec<T> implements Codec<List<T>> {

  private final Codec<T> items;

  ListCodec(Codec<T> items) {
    this.items = items;
  }

  @Override
  public void write(JsonGenerator g, List<T> values) throws IOException {
    g.writeStartArray();
    for (T value : values) {
      items.write(g, value);
    }
    g.writeEndArray();
  }

  @Override
  public List<T> read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_ARRAY);
    List<T> values = new ArrayList<>();
    while (Wire.nextItem(p)) {
      values.add(items.read(p));
    }
    return values;
  }
}
