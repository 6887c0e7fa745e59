package dev.fsm.control;

import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.FsmException;
import dev.fsm.control.wire.Wire;
import dev.fsm.store.LeaseLostException;
import dev.fsm.store.OutcomeUnknownException;
import dev.fsm.store.StoreDamagedException;
import dev.fsm.store.TaskExistsException;
import dev.fsm.store.TaskNotFoundException;
import java.io.IOException;

/**
 * Exceptions across the socket: the server writes what went wrong as a kind with the fields that
 * rebuild it, and the client throws the same type with the same message, so a verb prints and
 * exits alike whether the store is local or behind a runner. Other {@link FsmException}
 * subclasses arrive as a plain {@code FsmException} with their message.
 */
final class RemoteErrors {

  static final String NOT_FOUND = "not_found";
  static final String EXISTS = "exists";
  static final String LEASE_LOST = "lease_lost";
  static final String JOURNAL_DAMAGED = "journal_damaged";
  static final String REFUSED = "refused";
  /** The change may or may not have been made. */
  static final String UNKNOWN = "unknown";
  /** The delegate threw something that is not the user's problem: a bug or an I/O failure. */
  static final String FAILED = "failed";
  static final String BAD_REQUEST = "bad_request";

  private RemoteErrors() {}

  /**
   * Writes {@code e} as the value of the response's {@code error} field.
   *
   * @param kind the kind to send, or null to derive it from the exception's type
   */
  static void write(JsonGenerator g, FsmException e, String kind) throws IOException {
    g.writeStartObject();
    if (kind != null) {
      g.writeStringField("kind", kind);
    } else if (e instanceof TaskNotFoundException notFound) {
      g.writeStringField("kind", NOT_FOUND);
      g.writeStringField("id", notFound.id());
    } else if (e instanceof TaskExistsException exists) {
      g.writeStringField("kind", EXISTS);
      g.writeStringField("id", exists.id());
    } else if (e instanceof LeaseLostException lost) {
      g.writeStringField("kind", LEASE_LOST);
      g.writeStringField("id", lost.id());
      g.writeStringField("owner", lost.owner());
    } else if (e instanceof StoreDamagedException damaged) {
      g.writeStringField("kind", JOURNAL_DAMAGED);
      g.writeStringField("file", damaged.place());
      g.writeNumberField("offset", damaged.offset());
      g.writeStringField("reason", damaged.reason());
    } else if (e instanceof OutcomeUnknownException) {
      g.writeStringField("kind", UNKNOWN);
    } else {
      g.writeStringField("kind", REFUSED);
    }
    g.writeStringField("message", e.getMessage());
    g.writeEndObject();
  }

  /** The message a client sees when the owner failed in a way that is not the user's doing. */
  static String failure(String owner, Throwable e) {
    return owner + " failed the request (" + e.getClass().getSimpleName()
        + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "); its log has the details";
  }

  /** Reads the {@code error} field's value and returns the exception to throw. */
  static FsmException read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String kind = null;
    String message = null;
    String id = null;
    String owner = null;
    String file = null;
    long offset = 0;
    String reason = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "kind" -> kind = string(p);
        case "message" -> message = string(p);
        case "id" -> id = string(p);
        case "owner" -> owner = string(p);
        case "file" -> file = string(p);
        case "offset" -> offset = p.getLongValue();
        case "reason" -> reason = string(p);
        default -> p.skipChildren();
      }
    }
    String k = kind == null ? "" : kind;
    return switch (k) {
      case NOT_FOUND -> new TaskNotFoundException(id);
      case EXISTS -> new TaskExistsException(id);
      case LEASE_LOST -> new LeaseLostException(id, owner);
      case JOURNAL_DAMAGED -> new StoreDamagedException(message, file, offset, reason);
      case UNKNOWN -> new OutcomeUnknownException(message);
      default -> new FsmException(message);
    };
  }
}
