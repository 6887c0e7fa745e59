package dev.fsm.cli.verb.task;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * Prints the documents {@link TaskJson} writes: indented for one document, compact for a stream
 * of JSON lines, laid out as ObjectMapper would lay out the same values.
 */
final class JsonDocument {

  private static final JsonFactory JSON = new JsonFactory();

  /** Writes one JSON value. */
  @FunctionalInterface
  interface Value {
    void write(JsonGenerator g) throws IOException;
  }

  private JsonDocument() {}

  /** Prints the value indented, and a line break. */
  static void print(PrintWriter out, Value value) {
    out.println(indented(value));
  }

  /** Prints the value as one line and flushes, for streams of JSON lines. */
  static void line(PrintWriter out, Value value) {
    out.println(text(value, false));
    out.flush();
  }

  /** The value as indented text, without a final line break. */
  static String indented(Value value) {
    return text(value, true);
  }

  /**
   * Copies a stored context, which the engine keeps as compact JSON written by Jackson's tree
   * model, so copying token by token prints what reading it as a tree would.
   */
  static void copy(JsonGenerator g, String json) throws IOException {
    try (JsonParser p = JSON.createParser(json)) {
      p.nextToken();
      g.copyCurrentStructure(p);
    } catch (JsonParseException e) {
      throw new IllegalStateException("a stored context is not JSON", e);
    }
  }

  private static String text(Value value, boolean indented) {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(text)) {
      if (indented) {
        g.useDefaultPrettyPrinter();
      }
      value.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write JSON", e);
    }
    return text.toString();
  }
}
