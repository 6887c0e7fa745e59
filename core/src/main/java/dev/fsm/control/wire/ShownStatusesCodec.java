package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.STRINGS;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import dev.fsm.control.wire.Wire.ProtocolException;
import dev.fsm.task.ShownStatus;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** A set of shown statuses (a union filter) as an array of their words; empty for any. */
final class ShownStatusesCodec implements Codec<Set<ShownStatus>> {

  static final Codec<Set<ShownStatus>> STATUSES = new ShownStatusesCodec();

  private ShownStatusesCodec() {}

  @Override
  public void write(JsonGenerator g, Set<ShownStatus> statuses) throws IOException {
    STRINGS.write(g, statuses.stream().sorted().map(ShownStatus::word).toList());
  }

  @Override
  public Set<ShownStatus> read(JsonParser p) throws IOException {
    List<String> words = STRINGS.read(p);
    Set<ShownStatus> statuses = EnumSet.noneOf(ShownStatus.class);
    for (String w : words) {
      statuses.add(ShownStatus.parse(w)
          .orElseThrow(() -> new ProtocolException("unknown status " + w)));
    }
    return statuses;
  }
}
