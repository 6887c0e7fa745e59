package dev.fsm.store.transfer;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;

/**
 * The keys of one line's JSON object, read with the checks and messages an import needs. A
 * task's {@code context} is kept as the exact text it has in the line, so that it is imported
 * byte for byte. Keys nobody asks for are ignored: a later fsm may add optional ones.
 */
final class LineFields {

  /** What is wrong with a line, said without its file and number (the reader adds them). */
  static final class Malformed extends RuntimeException {
    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  private final Map<String, JsonNode> fields;
  private final String context;

  private LineFields(Map<String, JsonNode> fields, String context) {
    this.fields = fields;
    this.context = context;
  }

  /**
   * The object on {@code line}.
   *
   * @throws Malformed when it is not one JSON object with no key twice
   */
  static LineFields parse(String line, ObjectMapper json) {
    Map<String, JsonNode> fields = new HashMap<>();
    String context = null;
    try (JsonParser p = json.createParser(line)) {
      p.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new Malformed("not a JSON object");
      }
      for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
        String key = p.currentName();
        JsonToken value = p.nextToken();
        if ("context".equals(key) && value == JsonToken.START_OBJECT) {
          int start = (int) p.currentTokenLocation().getCharOffset();
          p.skipChildren();
          context = line.substring(start, (int) p.currentLocation().getCharOffset());
          fields.put(key, json.getNodeFactory().objectNode());
        } else {
          fields.put(key, p.readValueAsTree());
        }
      }
      if (p.nextToken() != null) {
        throw new Malformed("more than one JSON value on the line");
      }
    } catch (JsonParseException e) {
      throw new Malformed("not valid JSON (" + e.getOriginalMessage() + " at column "
          + e.getLocation().getColumnNr() + ")");
    } catch (IOException e) {
      throw new Malformed("not valid JSON (" + e.getMessage() + ")");
    }
    return new LineFields(fields, context);
  }

  /** Fields of a nested object, such as a history entry. */
  static LineFields of(JsonNode object, String what) {
    if (object == null || !object.isObject()) {
      throw new Malformed(what + " is not a JSON object");
    }
    Map<String, JsonNode> fields = new HashMap<>();
    object.fields().forEachRemaining(e -> fields.put(e.getKey(), e.getValue()));
    return new LineFields(fields, null);
  }

  boolean has(String key) {
    return fields.containsKey(key);
  }

  /** The text of a task's context object, exactly as the line has it. */
  String context() {
    if (context == null) {
      throw new Malformed(fields.containsKey("context") ? "\"context\" is not a JSON object"
          : "\"context\" is missing");
    }
    return context;
  }

  String string(String key) {
    JsonNode n = node(key);
    if (!n.isTextual()) {
      throw new Malformed(quoted(key) + " is not a string");
    }
    return n.textValue();
  }

  String stringOrNull(String key) {
    return node(key).isNull() ? null : string(key);
  }

  Instant instant(String key) {
    String text = string(key);
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new Malformed(quoted(key) + " is \"" + text + "\", not an ISO-8601 time such as"
          + " 2026-11-25T04:00:00.123456Z");
    }
  }

  Instant instantOrNull(String key) {
    return node(key).isNull() ? null : instant(key);
  }

  long number(String key) {
    JsonNode n = node(key);
    if (!n.isIntegralNumber() || !n.canConvertToLong() || n.longValue() < 0) {
      throw new Malformed(quoted(key) + " is not a whole number of 0 or more");
    }
    return n.longValue();
  }

  int integer(String key) {
    long n = number(key);
    if (n > Integer.MAX_VALUE) {
      throw new Malformed(quoted(key) + " is too large");
    }
    return (int) n;
  }

  /** A JSON array's elements. */
  Iterable<JsonNode> array(String key) {
    JsonNode n = node(key);
    if (!n.isArray()) {
      throw new Malformed(quoted(key) + " is not a JSON array");
    }
    return n;
  }

  /** A nested object's fields, or null when the key holds null. */
  LineFields objectOrNull(String key) {
    JsonNode n = node(key);
    return n.isNull() ? null : of(n, quoted(key));
  }

  private JsonNode node(String key) {
    JsonNode n = fields.get(key);
    if (n == null) {
      throw new Malformed(quoted(key) + " is missing");
    }
    return n;
  }

  private static String quoted(String key) {
    return "\"" + key + "\"";
  }
}
