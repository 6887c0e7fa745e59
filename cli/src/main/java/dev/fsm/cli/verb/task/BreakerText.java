package dev.fsm.cli.verb.task;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.MachineBreaker;
import dev.fsm.operations.Operations;
import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** A machine's circuit breaker as {@code fsm machines} and {@code fsm stats} show it. */
final class BreakerText {

  private BreakerText() {}

  /** Every machine's breaker, by name. */
  static Map<String, MachineBreaker> of(Operations control) {
    Map<String, MachineBreaker> out = new HashMap<>();
    control.breakers().forEach(b -> out.put(b.machine(), b));
    return out;
  }

  /**
   * One cell: {@code -}, {@code closed}, {@code open until 10:15:03 (75% of 20 attempts)} or
   * {@code half-open: probing (75% of 20 attempts)}.
   */
  static String text(MachineBreaker b) {
    if (b == null || b.state().equals(MachineBreaker.NONE)) {
      return "-";
    }
    String rate = String.format(Locale.ROOT, "%.0f%% of %d attempts", b.errorRate() * 100,
        b.attempts());
    return switch (b.state()) {
      case "open" -> "open until " + TaskText.time(b.until()) + " (" + rate + ")";
      case "half-open" -> "half-open: probing (" + rate + ")";
      default -> b.attempts() == 0 ? b.state() : b.state() + " (" + rate + ")";
    };
  }

  /**
   * The {@code breaker} field of a machine's JSON: null without a breaker, else {@code state},
   * {@code error_rate}, {@code attempts} and {@code until} (null unless open).
   */
  static void json(JsonGenerator g, MachineBreaker b) throws IOException {
    g.writeFieldName("breaker");
    if (b == null || b.state().equals(MachineBreaker.NONE)) {
      g.writeNull();
      return;
    }
    g.writeStartObject();
    g.writeStringField("state", b.state());
    g.writeNumberField("error_rate", b.errorRate());
    g.writeNumberField("attempts", b.attempts());
    g.writeStringField("until", b.until() == null ? null : TaskJson.time(b.until()));
    g.writeEndObject();
  }
}
