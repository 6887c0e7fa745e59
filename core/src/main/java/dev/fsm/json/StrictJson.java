package dev.fsm.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads the JSON that users and programs hand fsm ({@code --context}, {@code --from} lines,
 * action results) strictly: exactly one value, no duplicate keys, only finite numbers, bounded
 * nesting. Jackson's defaults accept trailing text and turn {@code 1e999} into the string
 * "Infinity"; both would change a task's context silently. Every problem carries its position.
 */
public final class StrictJson {

  /**
   * Deepest nesting accepted. Well under Jackson's default of 1000, because a context is printed
   * inside other documents ({@code --output json}) that add levels of their own.
   */
  public static final int MAX_DEPTH = 500;

  private static final JsonFactory FACTORY = JsonFactory.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
      .build();
  /** Decimals kept as written ({@code 1.10} stays {@code 1.10}). */
  private static final JsonNodeFactory NODES = new JsonNodeFactory(true);

  private StrictJson() {}

  /**
   * The one JSON value {@code text} holds.
   *
   * @throws InvalidJsonException saying what is wrong and where
   */
  public static JsonNode read(String text) throws InvalidJsonException {
    if (text.isBlank()) {
      throw new InvalidJsonException("there is no JSON value", -1, -1);
    }
    try (JsonParser p = FACTORY.createParser(text)) {
      try {
        p.nextToken();
        JsonNode value = value(p);
        int end = (int) p.currentLocation().getCharOffset();
        while (end < text.length() && Character.isWhitespace(text.charAt(end))) {
          end++;
        }
        if (end < text.length()) {
          throw at(text, end, "more text follows the JSON value; give exactly one");
        }
        return value;
      } catch (JsonProcessingException e) {
        // Limits (depth, number length) are reported without a location: the parser's is it.
        JsonLocation at = e.getLocation() != null ? e.getLocation() : p.currentLocation();
        throw new InvalidJsonException(plain(e.getOriginalMessage()), at.getLineNr(),
            at.getColumnNr());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading a string cannot fail", e);
    }
  }

  /** A problem at a char offset of the text, placed by line and column from 1. */
  private static InvalidJsonException at(String text, int offset, String problem) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new InvalidJsonException(problem, line, offset - lineStart + 1);
  }

  /**
   * Refuses a string with a lone UTF-16 surrogate (the escape of D800 with no low surrogate
   * after it): JSON allows the escape, but no UTF-8 text holds it, so it would be stored as "?"
   * without a word.
   */
  private static String whole(String text, JsonParser p) throws InvalidJsonException {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        JsonLocation at = p.currentTokenLocation();
        throw new InvalidJsonException(String.format("a string holds a lone UTF-16 surrogate"
            + " \\u%04x, which no UTF-8 text can hold; a surrogate escape stands only in a pair,"
            + " such as \\ud83d\\ude9a", (int) c), at.getLineNr(), at.getColumnNr());
      }
    }
    return text;
  }

  private static JsonNode value(JsonParser p) throws IOException, InvalidJsonException {
    switch (p.currentToken()) {
      case START_OBJECT -> {
        ObjectNode object = NODES.objectNode();
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
          whole(name, p);
          p.nextToken();
          object.set(name, value(p));
        }
        return object;
      }
      case START_ARRAY -> {
        ArrayNode array = NODES.arrayNode();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          array.add(value(p));
        }
        return array;
      }
      case VALUE_STRING -> {
        return NODES.textNode(whole(p.getText(), p));
      }
      case VALUE_NUMBER_INT -> {
        return switch (p.getNumberType()) {
          case INT -> NODES.numberNode(p.getIntValue());
          case LONG -> NODES.numberNode(p.getLongValue());
          default -> NODES.numberNode(p.getBigIntegerValue());
        };
      }
      case VALUE_NUMBER_FLOAT -> {
        if (!Double.isFinite(p.getDoubleValue())) {
          JsonLocation at = p.currentTokenLocation();
          throw new InvalidJsonException("the number " + brief(p.getText()) + " is too large;"
              + " numbers must fit a double (about 1.8e308)", at.getLineNr(), at.getColumnNr());
        }
        return NODES.numberNode(p.getDecimalValue());
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return NODES.booleanNode(p.getBooleanValue());
      }
      case VALUE_NULL -> {
        return NODES.nullNode();
      }
      default -> throw new IllegalStateException("a value cannot start with "
          + p.currentToken());
    }
  }

  /** Jackson's message without its advice on parser settings, which users cannot change. */
  private static String plain(String message) {
    String m = message == null ? "bad JSON" : message.replaceAll(", from `[^`]*`\\)", ")");
    for (String noise : new String[] {": enable ", " (start marker at", "\n"}) {
      int at = m.indexOf(noise);
      if (at >= 0) {
        m = m.substring(0, at);
      }
    }
    return m.strip();
  }

  private static String brief(String text) {
    return text.length() <= 40 ? text : text.substring(0, 37) + "...";
  }

  /** JSON that {@link #read} refused: what is wrong, and the line and column where. */
  public static final class InvalidJsonException extends Exception {

    private final String problem;
    private final int line;
    private final int column;

    InvalidJsonException(String problem, int line, int column) {
      super(problem);
      this.problem = problem;
      this.line = line;
      this.column = column;
    }

    /** What is wrong, without the position. */
    public String problem() {
      return problem;
    }

    /** "at column 9", or "at line 3, column 9" when the text had several lines. */
    public String where() {
      if (line < 1 || column < 1) {
        return "";
      }
      return line == 1 ? "at column " + column : "at line " + line + ", column " + column;
    }

    /** "SUBJECT is not valid JSON at column 9: problem". */
    public String message(String subject) {
      String where = where();
      return subject + " is not valid JSON" + (where.isEmpty() ? "" : " " + where) + ": "
          + problem;
    }
  }
}
