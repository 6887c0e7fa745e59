package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The control protocol's constants and the parser steps every codec uses. Each request and each
 * response is one JSON object on one line; both carry {@code "v":1}. A request is
 * {@code {"v":1,"op":NAME,...arguments}} (see {@link Request}); a response is
 * {@code {"v":1,"ok":true,"result":...}} or
 * {@code {"v":1,"ok":false,"error":{"kind":...,"message":...}}}. Instants and durations travel as
 * {@code [seconds, nanos]}: lossless, and cheaper to read than ISO-8601, whose formatter classes
 * would cost the client start-up time. Between responses the server may write bare newlines as a
 * heartbeat while a long request runs; readers skip them as whitespace.
 */
public final class Wire {

  /** The protocol version; a server refuses requests of another. */
  public static final int VERSION = 1;

  /**
   * Streaming only: {@code ObjectMapper} would cost the client tens of milliseconds to load. No
   * separator between root values, so every line starts with its object.
   */
  public static final JsonFactory JSON = new JsonFactoryBuilder()
      .rootValueSeparator((String) null).build();

  private Wire() {}

  /** Fails unless the parser stands on {@code expected}. */
  public static void expect(JsonParser p, JsonToken expected) throws IOException {
    if (p.currentToken() != expected) {
      throw new ProtocolException("expected " + expected + " but found " + p.currentToken());
    }
  }

  /** Moves to the next token and fails unless it is a field called {@code name}. */
  public static void field(JsonParser p, String name) throws IOException {
    if (p.nextToken() != JsonToken.FIELD_NAME || !name.equals(p.currentName())) {
      throw new ProtocolException("expected field " + name + " but found " + p.currentToken()
          + " " + p.currentName());
    }
    p.nextToken();
  }

  /** Moves to the next field's value of an object; false at the object's end. */
  public static boolean nextField(JsonParser p) throws IOException {
    JsonToken t = p.nextToken();
    if (t == JsonToken.END_OBJECT) {
      return false;
    }
    if (t != JsonToken.FIELD_NAME) {
      throw new ProtocolException("expected a field but found " + t);
    }
    p.nextToken();
    return true;
  }

  /** Moves to the next item of an array; false at its end. */
  public static boolean nextItem(JsonParser p) throws IOException {
    return p.nextToken() != JsonToken.END_ARRAY;
  }

  /** The string the parser stands on, or null for JSON null. */
  public static String string(JsonParser p) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
    expect(p, JsonToken.VALUE_STRING);
    return p.getText();
  }

  /** A message that does not follow the protocol: a bug or a version mismatch, never user data. */
  public static final class ProtocolException extends IOException {

    public ProtocolException(String message) {
      super(message);
    }
  }
}
