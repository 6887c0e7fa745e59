package dev.fsm.action;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fsm.json.StrictJson;
import dev.fsm.model.Durations;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Reads a finished program's outcome by the action protocol: a JSON object on the last non-empty
 * stdout line is the result, and a last line that starts with <code>{</code> but is no complete
 * JSON object is an error whatever the exit status (a result cut off by a crash must not pass for
 * success); otherwise exit 0 is {@code ok} and any other exit is an error that quotes the tail of
 * stderr.
 */
final class ProgramResult {

  /** At most this much of stderr is quoted in an error: the task's error list stays readable. */
  static final int STDERR_CHARS = 1000;

  static final int STDERR_LINES = 5;

  /** Longest event name a result may carry; names in machine files are short words. */
  static final int EVENT_CHARS = 200;

  private static final String SHAPES = "expected {\"event\": \"...\", \"context\": {...}},"
      + " {\"sleep\": \"10m\"} or {\"error\": \"...\"}";
  private static final List<String> SIGNALS = List.of("HUP", "INT", "QUIT", "ILL", "TRAP",
      "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM");

  private ProgramResult() {}

  /**
   * The outcome of a program that exited with {@code status}.
   *
   * @param stdoutTruncated true when the start of stdout was dropped to stay under the cap
   */
  static ActionOutcome of(String stdout, boolean stdoutTruncated, String stderr, int status) {
    String line = lastLine(stdout);
    if (line.endsWith("}") && stdoutTruncated && stdout.strip().equals(line)) {
      // Its start was dropped with the rest of the oldest output; it may have been a result.
      return new ActionOutcome.Error("the last stdout line is longer than the output cap;"
          + " write a shorter result line");
    }
    if (line.startsWith("{")) {
      return fromJson(line);
    }
    if (status == 0) {
      return new ActionOutcome.Event("ok", null);
    }
    String tail = tail(stderr);
    String exit = exitText(status);
    return new ActionOutcome.Error(tail.isEmpty() ? exit : tail + " (" + exit + ")");
  }

  static ActionOutcome fromJson(String line) {
    JsonNode node;
    try {
      node = StrictJson.read(line);
    } catch (StrictJson.InvalidJsonException e) {
      return new ActionOutcome.Error(e.message("the last stdout line `" + brief(line)
          + "` starts like a result but") + "; " + SHAPES);
    }
    String unknown = firstUnknownKey(node);
    if (unknown != null) {
      return new ActionOutcome.Error("result line has unexpected key `" + unknown + "`; "
          + SHAPES);
    }
    int kinds = (node.has("event") ? 1 : 0) + (node.has("sleep") ? 1 : 0)
        + (node.has("error") ? 1 : 0);
    if (kinds != 1 || node.has("context") && !node.has("event")) {
      return new ActionOutcome.Error("result line " + brief(line) + " has the wrong shape; "
          + SHAPES);
    }
    if (node.has("event")) {
      return event(node);
    }
    if (node.has("sleep")) {
      return sleep(node.get("sleep"));
    }
    JsonNode error = node.get("error");
    if (!error.isTextual()) {
      return new ActionOutcome.Error("result line: `error` must be a string, not "
          + brief(error.toString()));
    }
    String message = error.asText().strip();
    if (message.length() > STDERR_CHARS) {
      // The task keeps its recent errors; a huge one must not crowd out the rest.
      message = message.substring(0, STDERR_CHARS - 3) + "...";
    }
    return new ActionOutcome.Error(message.isEmpty() ? "the program reported an error without"
        + " a message" : message);
  }

  private static ActionOutcome event(JsonNode node) {
    JsonNode event = node.get("event");
    if (!event.isTextual() || event.asText().isBlank()) {
      return new ActionOutcome.Error("result line: `event` must be a non-empty string, not "
          + brief(event.toString()));
    }
    if (event.asText().length() > EVENT_CHARS) {
      return new ActionOutcome.Error("result line: `event` is " + event.asText().length()
          + " characters long; events are names of the state's edges, such as \"ok\"");
    }
    JsonNode context = node.get("context");
    if (context == null || context.isNull()) {
      return new ActionOutcome.Event(event.asText(), null);
    }
    if (!context.isObject()) {
      return new ActionOutcome.Error("result line: `context` must be a JSON object, not "
          + brief(context.toString()));
    }
    return new ActionOutcome.Event(event.asText(), context.toString());
  }

  private static ActionOutcome sleep(JsonNode sleep) {
    if (!sleep.isTextual()) {
      return new ActionOutcome.Error("result line: `sleep` must be a duration such as \"10m\","
          + " not " + brief(sleep.toString()));
    }
    try {
      return new ActionOutcome.Sleep(Durations.parse(sleep.asText()));
    } catch (IllegalArgumentException e) {
      return new ActionOutcome.Error("result line: " + e.getMessage());
    }
  }

  private static String firstUnknownKey(JsonNode node) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!List.of("event", "context", "sleep", "error").contains(name)) {
        return name;
      }
    }
    return null;
  }

  private static String lastLine(String text) {
    int end = text.length();
    while (end > 0) {
      int start = text.lastIndexOf('\n', end - 1) + 1;
      String line = text.substring(start, end).strip();
      if (!line.isEmpty()) {
        return line;
      }
      end = start - 1;
    }
    return "";
  }

  /** The last few non-empty lines of stderr, at most {@link #STDERR_CHARS} in all. */
  static String tail(String stderr) {
    String[] lines = stderr.split("\n");
    List<String> kept = new ArrayList<>();
    int chars = 0;
    for (int i = lines.length - 1; i >= 0 && kept.size() < STDERR_LINES; i--) {
      String line = lines[i].strip();
      if (line.isEmpty()) {
        continue;
      }
      if (!kept.isEmpty() && chars + line.length() + 1 > STDERR_CHARS) {
        break;
      }
      kept.add(0, line);
      chars += line.length() + 1;
    }
    String tail = String.join("\n", kept);
    return tail.length() <= STDERR_CHARS ? tail
        : "..." + tail.substring(tail.length() - STDERR_CHARS).strip();
  }

  /** "exited with status 3", or with the signal's name when it looks like one killed it. */
  static String exitText(int status) {
    int signal = status - 128;
    if (signal >= 1 && signal <= SIGNALS.size()) {
      return "exited with status " + status + ", SIG" + SIGNALS.get(signal - 1);
    }
    return "exited with status " + status;
  }

  private static String brief(String text) {
    return text.length() <= 80 ? text : text.substring(0, 77) + "...";
  }
}
