package dev.fsm.cli;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.verb.Validate;
import dev.fsm.cli.verb.task.FastSend;
import dev.fsm.cli.verb.task.FastStart;
import dev.fsm.cli.verb.task.Signal;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Runs the most common command lines without building picocli's command tree, because start-up
 * is part of the product: picocli's reflective set-up costs more than the JVM's own start.
 *
 * <p>It recognises a strict subset (see {@link FastLine}) of {@code fsm validate [PATH...]}, of
 * {@code fsm send ID COMMAND [--until T] [--reason TEXT]} to an embedded store, of
 * {@code fsm start MACHINE [--id ID] [--context JSON|@FILE] [--at TIME]}, of
 * {@code fsm signal ID EVENT [--context JSON|@FILE]}, and of the read verbs {@code show},
 * {@code history}, {@code ls} and {@code stats} (see {@link FastRead}), with the global options,
 * and hands anything else, including every help, usage error and unusual spelling, to the full
 * parser. Tests check both routes print the same for the same command line.
 */
final class FastPath {

  private FastPath() {}

  /** The exit status after running the command line, or empty when picocli must parse it. */
  static OptionalInt tryRun(String[] args, Map<String, String> env, PrintWriter out,
      PrintWriter err) {
    FastLine line = FastLine.parse(args, env, err);
    if (line == null) {
      return OptionalInt.empty();
    }
    try {
      switch (line.verb) {
        case "send" -> {
          return FastSend.tryRun(line.global, line.words, line.options.get("--until"),
              line.options.get("--reason"), out);
        }
        case "start" -> {
          return FastStart.tryRun(line.global, line.words, line.options, out, err);
        }
        case "signal" -> {
          return line.words.size() != 2 ? OptionalInt.empty()
              : OptionalInt.of(Signal.signal(line.words.get(0), line.words.get(1),
                  line.options.get("--context"), line.global, out));
        }
        case "show", "history", "ls", "stats" -> {
          return FastRead.tryRun(line.verb, line.global, line.words, line.options, out, err);
        }
        default -> { }
      }
      List<Path> paths = new ArrayList<>();
      for (String word : line.words) {
        paths.add(Path.of(word));
      }
      return OptionalInt.of(Validate.execute(paths, line.global, out, err));
    } catch (RuntimeException e) {
      return OptionalInt.of(ExitCodes.report(e, err, line.global.verbose()));
    }
  }
}
