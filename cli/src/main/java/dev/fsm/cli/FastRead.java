package dev.fsm.cli;

import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.verb.task.History;
import dev.fsm.cli.verb.task.Ls;
import dev.fsm.cli.verb.task.Show;
import dev.fsm.cli.verb.task.Stats;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.ShownStatus;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The read verbs {@code show ID}, {@code history ID}, {@code stats [MACHINE]} and {@code ls}
 * with its options, run without picocli (which costs more than the store open they wait for).
 * Any value picocli would convert differently or refuse (a limit below 1 or not a plain number,
 * an unknown status or sort, -q with JSON) declines, so picocli prints its own message.
 */
final class FastRead {

  private FastRead() {}

  /** The exit status, or empty when the line must go to picocli. */
  static OptionalInt tryRun(String verb, GlobalOptions global, List<String> words,
      Map<String, String> options, PrintWriter out, PrintWriter err) {
    return switch (verb) {
      case "show" -> words.size() != 1 ? OptionalInt.empty()
          : OptionalInt.of(Show.show(words.get(0), global, out));
      case "history" -> words.size() != 1 ? OptionalInt.empty()
          : OptionalInt.of(History.history(words.get(0), global, out));
      case "stats" -> words.size() > 1 ? OptionalInt.empty()
          : OptionalInt.of(Stats.stats(words.isEmpty() ? null : words.get(0), global, out, err));
      case "ls" -> {
        Optional<Ls.Listing> asked = words.isEmpty() ? listing(options, global)
            : Optional.empty();
        yield asked.isEmpty() ? OptionalInt.empty()
            : OptionalInt.of(Ls.list(asked.get(), global, out, err));
      }
      default -> OptionalInt.empty();
    };
  }

  /** The options of {@code fsm ls} as picocli would read them, or empty to let it. */
  private static Optional<Ls.Listing> listing(Map<String, String> options,
      GlobalOptions global) {
    boolean quiet = options.containsKey("--quiet");
    String limitText = options.getOrDefault("--limit", "50");
    // Plain digits only, at most nine of them: picocli reads others (a sign, an overflow) itself.
    if (!limitText.matches("[1-9][0-9]{0,8}") || (quiet && global.json())) {
      return Optional.empty();
    }
    TaskQuery.Sort sort = TaskQuery.Sort.CREATED;
    if (options.containsKey("--sort")) {
      Optional<TaskQuery.Sort> named = sort(options.get("--sort"));
      if (named.isEmpty()) {
        return Optional.empty();
      }
      sort = named.get();
    }
    Set<ShownStatus> statuses = Set.of();
    if (options.containsKey("--status")) {
      Optional<ShownStatus> status = ShownStatus.parse(options.get("--status"));
      if (status.isEmpty()) {
        return Optional.empty();
      }
      statuses = Set.of(status.get());
    }
    return Optional.of(new Ls.Listing(options.get("--machine"), options.get("--state"),
        statuses, sort, options.containsKey("--reverse"), Integer.parseInt(limitText), quiet));
  }

  private static Optional<TaskQuery.Sort> sort(String word) {
    return switch (word) {
      case "created" -> Optional.of(TaskQuery.Sort.CREATED);
      case "updated" -> Optional.of(TaskQuery.Sort.UPDATED);
      case "id" -> Optional.of(TaskQuery.Sort.ID);
      default -> Optional.empty();
    };
  }
}
