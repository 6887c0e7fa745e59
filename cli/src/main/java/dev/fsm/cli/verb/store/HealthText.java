package dev.fsm.cli.verb.store;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.Json;
import dev.fsm.store.StoreHealth;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/** Prints a database store's health for {@code fsm store check}, and picks the exit code. */
final class HealthText {

  private HealthText() {}

  static int print(StoreHealth health, boolean json, PrintWriter out, PrintWriter err) {
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("store", health.store());
      Map<String, String> facts = new LinkedHashMap<>();
      health.facts().forEach(f -> facts.put(f.name().replace(' ', '_'), f.value()));
      doc.put("facts", facts);
      doc.put("problems", health.problems());
      doc.put("healthy", health.healthy());
      Json.print(out, doc);
    } else {
      out.println("store " + health.store());
      int width = health.facts().stream().mapToInt(f -> f.name().length()).max().orElse(0);
      for (StoreHealth.Fact f : health.facts()) {
        out.println("  " + f.name() + ":" + " ".repeat(width - f.name().length() + 1)
            + f.value());
      }
      out.println(health.healthy() ? "healthy" : health.problems().size() + " problem"
          + (health.problems().size() == 1 ? "" : "s"));
    }
    for (String problem : health.problems()) {
      err.println("fsm: " + problem);
    }
    return health.healthy() ? ExitCodes.OK : ExitCodes.FAILED;
  }
}
