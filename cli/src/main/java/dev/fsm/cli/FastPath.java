package dev.fsm.cli;

import dev.fsm.cli.verb.Validate;
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
 * <p>It recognises a strict subset of {@code fsm validate [PATH...]} with the global options and
 * hands anything else, including every help, usage error and unusual spelling, to the full
 * parser. Tests check both routes print the same for the same command line.
 */
final class FastPath {

  private FastPath() {}

  /** The exit status after running the command line, or empty when picocli must parse it. */
  static OptionalInt tryRun(String[] args, Map<String, String> env, PrintWriter out,
      PrintWriter err) {
    GlobalOptions global = new GlobalOptions(env);
    List<Path> paths = new ArrayList<>();
    boolean verbSeen = false;
    boolean storeSeen = false;
    boolean machinesSeen = false;
    boolean outputSeen = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String name = arg.contains("=") && arg.startsWith("--") ? arg.substring(0, arg.indexOf('='))
          : arg;
      String inline = name.equals(arg) ? null : arg.substring(name.length() + 1);
      switch (name) {
        case "--no-color" -> {
          if (inline != null) {
            return OptionalInt.empty();
          }
          global.noColor = true;
        }
        case "-v", "--verbose" -> {
          if (inline != null) {
            return OptionalInt.empty();
          }
          global.verbose = true;
        }
        case "--store", "--machines", "--output" -> {
          String value = inline != null ? inline : (i + 1 < args.length ? args[++i] : null);
          if (!plainValue(value)) {
            return OptionalInt.empty();
          }
          if (name.equals("--store")) {
            if (storeSeen) {
              return OptionalInt.empty();
            }
            storeSeen = true;
            global.store = value;
          } else if (name.equals("--machines")) {
            if (machinesSeen) {
              return OptionalInt.empty();
            }
            machinesSeen = true;
            global.machines = Path.of(value);
          } else {
            if (outputSeen || !(value.equals("text") || value.equals("json"))) {
              return OptionalInt.empty();
            }
            outputSeen = true;
            global.output = GlobalOptions.Output.valueOf(value);
          }
        }
        default -> {
          if (!verbSeen && arg.equals("validate")) {
            verbSeen = true;
          } else if (verbSeen && plainValue(arg)) {
            paths.add(Path.of(arg));
          } else {
            return OptionalInt.empty();
          }
        }
      }
    }
    if (!verbSeen) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Validate.execute(paths, global, out, err));
    } catch (RuntimeException e) {
      return OptionalInt.of(ExitCodes.report(e, err, global.verbose()));
    }
  }

  /**
   * A value picocli would take as plain text: not an option, an argument file ({@code @file}),
   * a verb name or anything a path cannot hold.
   */
  private static boolean plainValue(String value) {
    return value != null && !value.isEmpty() && !value.startsWith("-") && !value.startsWith("@")
        && !value.equals("validate") && !value.equals("help") && value.indexOf('\0') < 0;
  }
}
