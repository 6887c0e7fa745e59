package dev.fsm.cli.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;

/** Prints one JSON document; Jackson is loaded only when JSON output is asked for. */
public final class Json {

  private Json() {}

  /** Prints {@code document} as indented JSON. */
  public static void print(PrintWriter out, Object document) {
    try {
      out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
          .writeValueAsString(document));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  /** Prints {@code document} as one line of JSON, for streams of JSON lines. */
  public static void line(PrintWriter out, Object document) {
    try {
      out.println(new ObjectMapper().writeValueAsString(document));
      out.flush();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }
}
