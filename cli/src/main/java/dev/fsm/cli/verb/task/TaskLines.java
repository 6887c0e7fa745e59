package dev.fsm.cli.verb.task;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fsm.FsmException;
import dev.fsm.engine.Contexts;
import dev.fsm.engine.TaskIds;
import dev.fsm.json.StrictJson;
import dev.fsm.operations.NewTask;
import java.time.Clock;
import java.time.Instant;
import java.util.Iterator;
import java.util.Set;

/**
 * One line of a {@code fsm start --from FILE.jsonl} file: a JSON object with an optional
 * {@code id}, {@code context} (an object) and {@code at} (a time or a duration from now).
 */
final class TaskLines {

  private static final Set<String> KEYS = Set.of("id", "context", "at");

  private TaskLines() {}

  /**
   * The task a line describes.
   *
   * @throws IllegalArgumentException with a message for the user, without the file and line
   */
  static NewTask parse(String line, Clock clock) {
    JsonNode node;
    try {
      node = StrictJson.read(line);
    } catch (StrictJson.InvalidJsonException e) {
      throw new IllegalArgumentException(e.message("the line"));
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException("each line must be a JSON object like"
          + " {\"id\": \"a1\", \"context\": {...}, \"at\": \"10m\"}");
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!KEYS.contains(name)) {
        throw new IllegalArgumentException("unknown key `" + name + "`; a line may have id,"
            + " context and at");
      }
    }
    String id = text(node, "id");
    if (id != null) {
      try {
        TaskIds.checked(id);
      } catch (FsmException e) {
        throw new IllegalArgumentException(e.getMessage());
      }
    }
    String at = text(node, "at");
    JsonNode context = node.get("context");
    String contextText = null;
    if (context != null && !context.isNull()) {
      if (!context.isObject()) {
        throw new IllegalArgumentException("`context` must be a JSON object");
      }
      try {
        contextText = Contexts.parse(context.toString(), "`context`");
      } catch (FsmException e) {
        throw new IllegalArgumentException(e.getMessage());
      }
    }
    Instant when = at == null ? null : Times.parse(at, clock);
    return new NewTask(id, contextText, when);
  }

  private static String text(JsonNode node, String key) {
    JsonNode value = node.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw new IllegalArgumentException("`" + key + "` must be a string");
    }
    return value.asText();
  }
}
