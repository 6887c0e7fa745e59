package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.DURATION;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.engine.StateStats;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** One state's statistics on the wire; the counts are an object keyed by status word. */
public final class StateStatsCodec implements Codec<StateStats> {

  public static final Codec<List<StateStats>> LIST = Codec.list(new StateStatsCodec());

  private StateStatsCodec() {}

  @Override
  public void write(JsonGenerator g, StateStats s) throws IOException {
    g.writeStartObject();
    STRING.write(g, "machine", s.machine());
    STRING.write(g, "state", s.state());
    g.writeObjectFieldStart("counts");
    for (Map.Entry<TaskStatus, Long> e : s.counts().entrySet()) {
      g.writeNumberField(e.getKey().word(), e.getValue());
    }
    g.writeEndObject();
    g.writeNumberField("samples", s.samples());
    DURATION.write(g, "p50", s.p50());
    DURATION.write(g, "p95", s.p95());
    DURATION.write(g, "p99", s.p99());
    g.writeNumberField("errorRate", s.errorRate());
    STRING.write(g, "timeout", s.timeout());
    g.writeEndObject();
  }

  @Override
  public StateStats read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String machine = null;
    String state = null;
    Map<TaskStatus, Long> counts = new EnumMap<>(TaskStatus.class);
    long samples = 0;
    Duration p50 = null;
    Duration p95 = null;
    Duration p99 = null;
    double errorRate = 0;
    String timeout = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "machine" -> machine = string(p);
        case "state" -> state = string(p);
        case "counts" -> {
          while (nextField(p)) {
            counts.put(Scalars.status(p.currentName()), p.getLongValue());
          }
        }
        case "samples" -> samples = p.getLongValue();
        case "p50" -> p50 = DURATION.read(p);
        case "p95" -> p95 = DURATION.read(p);
        case "p99" -> p99 = DURATION.read(p);
        // Non-finite doubles travel as strings ("NaN"), JSON having no literal for them.
        case "errorRate" -> errorRate = p.currentToken() == JsonToken.VALUE_STRING
            ? Double.parseDouble(p.getText()) : p.getDoubleValue();
        case "timeout" -> timeout = string(p);
        default -> p.skipChildren();
      }
    }
    return new StateStats(machine, state, counts, samples, p50, p95, p99, errorRate, timeout);
  }
}
