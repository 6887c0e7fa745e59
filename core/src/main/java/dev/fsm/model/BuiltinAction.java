package dev.fsm.model;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The built-in actions, with the arguments each accepts. */
public enum BuiltinAction {
  /** Emits {@code ok}. */
  NOOP(0, 0, ""),
  /** Fails with an optional message. */
  FAIL(0, Integer.MAX_VALUE, "[message]"),
  /** Sleeps for a duration, then emits {@code ok}. */
  SLEEP(1, 1, "<duration>"),
  /** Emits the named event. */
  EMIT(1, 1, "<event>");

  /** The prefix that marks a built-in in a {@code run:} value. */
  public static final String PREFIX = "builtin:";

  private final int minArgs;
  private final int maxArgs;
  private final String usage;

  BuiltinAction(int minArgs, int maxArgs, String usage) {
    this.minArgs = minArgs;
    this.maxArgs = maxArgs;
    this.usage = usage;
  }

  /** The name used after {@code builtin:}. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** How to write it, e.g. {@code builtin:sleep <duration>}. */
  public String usage() {
    return (PREFIX + word() + " " + usage).strip();
  }

  /** True when this many arguments are accepted. */
  public boolean accepts(int argCount) {
    return argCount >= minArgs && argCount <= maxArgs;
  }

  /** The built-in with this name. */
  public static Optional<BuiltinAction> named(String word) {
    for (BuiltinAction b : values()) {
      if (b.word().equals(word)) {
        return Optional.of(b);
      }
    }
    return Optional.empty();
  }

  /** Every built-in's name, for suggestions. */
  public static List<String> words() {
    return Arrays.stream(values()).map(BuiltinAction::word).toList();
  }
}
