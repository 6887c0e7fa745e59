package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.GlobalOptions;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * {@code fsm start MACHINE [--id ID] [--context JSON|@FILE] [--at TIME]} without picocli: what
 * {@link Start} prints, or empty, having printed nothing, when picocli must word the mistake (a
 * time it cannot read is a usage error naming the option).
 */
public final class FastStart {

  private FastStart() {}

  /**
   * Starts the task, or returns empty for the full verb.
   *
   * @param words the verb's positional words, which must be the machine alone
   * @param options {@code --id}, {@code --context} and {@code --at} as typed, each when given
   */
  public static OptionalInt tryRun(GlobalOptions global, List<String> words,
      Map<String, String> options, PrintWriter out, PrintWriter err) {
    if (words.size() != 1) {
      return OptionalInt.empty();
    }
    Instant at = null;
    if (options.containsKey("--at")) {
      try {
        at = Times.parse(options.get("--at"), Clock.systemDefaultZone());
      } catch (IllegalArgumentException e) {
        return OptionalInt.empty();
      }
    }
    return OptionalInt.of(Start.startOne(words.get(0), options.get("--id"),
        options.get("--context"), at, global, out, err));
  }
}
