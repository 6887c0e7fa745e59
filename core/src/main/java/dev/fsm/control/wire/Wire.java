package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The control protocol's constants. Each request and each response is one JSON object on one
 * line; both carry {@code "v":1}. A response is {@code {"v":1,"ok":true,"result":...}} or
 * {@code {"v":1,"ok":false,"error":{"kind":...,"message":...}}}. Instants and durations travel as
 * {@code [seconds, nanos]}: lossless, and cheaper to read than ISO-8601, whose formatter classes
 * would cost the client start-up time. Between responses the server may write bare newlines as a
 * heartbeat while a long request runs; readers skip them as whitespace.
 */
final class Wire {

  /** The protocol version; a server refuses requests of another. */
  static final int VERSION = 1;

  /**
   * Streaming only: {@code ObjectMapper} would cost the client tens of milliseconds to load. No
   * separator between root values, so every line starts with its object.
   */
  static final JsonFactory JSON = new JsonFactoryBuilder()
      .rootValueSeparator((String) null).build();

  static final String HELLO = "hello";
  static final String START = "start";
  static final String SEND = "send";
  static final String SEND_ALL = "sendAll";
  static final String SIGNAL = "signal";
  static final String GET = "get";
  static final String HISTORY = "history";
  static final String LIST = "list";
  static final String IDS = "idsStartingWith";
  static final String COUNTS = "counts";
  static final String STATS = "stats";
  static final String VERSIONS = "versions";
  static final String MACHINE_NAMES = "machineNames";

  private Wire() {}

  /** Fails unless the parser stands on {@code expected}. */
  static void expect(JsonParser p, JsonToken expected) throws IOException {
    if (p.currentToken() != expected) {
      throw new ProtocolException("expected " + expected + " but found " + p.currentToken());
    }
  }

  /** Moves to the next token and fails unless it is a field called {@code name}. */
  static void field(JsonParser p, String name) throws IOException {
    if (p.nextToken() != JsonToken.FIELD_NAME || !name.equals(p.currentName())) {
      throw new ProtocolException("expected field " + name + " but found " + p.currentToken()
          + " " + p.currentName());
    }
    p.nextToken();
  }

  /** A message that does not follow the protocol: a bug or a version mismatch, never user data. */
  static final class ProtocolException extends IOException {

    ProtocolException(String message) {
      super(message);
    }
  }
}
