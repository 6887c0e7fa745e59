package dev.fsm.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fsm.FsmException;
import dev.fsm.json.StrictJson;
import java.nio.charset.StandardCharsets;

/** Task contexts: JSON objects of at most 1 MiB, merged shallowly. */
public final class Contexts {

  /** The largest context a task may have, in UTF-8 bytes. */
  public static final int MAX_BYTES = 1 << 20;

  /**
   * The longest text read for one context before it is compacted: room for a pretty-printed
   * 1 MiB context, while a file such as {@code /dev/zero} is cut off long before memory runs out.
   */
  public static final int MAX_TEXT_BYTES = 4 * MAX_BYTES;

  /** The context of a task started without one. */
  public static final String EMPTY = "{}";

  private Contexts() {}

  /**
   * The text as a compact JSON object.
   *
   * @param what names the text for the message, e.g. "--context" or "line 3 of tasks.jsonl"
   * @throws FsmException when it is not exactly one JSON object (by {@link StrictJson}) or is
   *     larger than 1 MiB
   */
  public static String parse(String text, String what) {
    return write(object(text, what), what);
  }

  /**
   * The context after shallowly merging {@code patch} into {@code base}: each top-level key of the
   * patch replaces the base's.
   *
   * @throws FsmException when the patch is not a JSON object or the result exceeds 1 MiB
   */
  public static String merge(String base, String patch, String what) {
    if (patch == null) {
      return base;
    }
    ObjectNode merged = object(base, "the task's context");
    merged.setAll(object(patch, what));
    return write(merged, what);
  }

  private static ObjectNode object(String text, String what) {
    JsonNode node;
    try {
      node = StrictJson.read(text);
    } catch (StrictJson.InvalidJsonException e) {
      throw new FsmException(e.message(what));
    }
    if (!(node instanceof ObjectNode object)) {
      throw new FsmException(what + " must be a JSON object, like {\"key\": \"value\"}");
    }
    return object;
  }

  private static String write(ObjectNode node, String what) {
    String text = node.toString();
    int bytes = text.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_BYTES) {
      throw new FsmException(what + ": a task's context may hold at most 1 MiB; this one would be "
          + bytes + " bytes");
    }
    return text;
  }
}
