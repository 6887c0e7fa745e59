package dev.fsm.action;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.task.Task;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/** What a program is given by the action protocol: its stdin document and environment. */
final class ProgramInput {

  private static final JsonFactory JSON = new JsonFactory();

  private ProgramInput() {}

  /**
   * One JSON object and a newline: {@code {"id","machine","version","state","attempt","context"}},
   * {@code version} being the version's number.
   */
  static byte[] stdin(ActionRequest request) {
    Task task = request.task();
    ByteArrayOutputStream out = new ByteArrayOutputStream(256 + task.context().length());
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      json.writeStringField("id", task.id());
      json.writeStringField("machine", task.machine());
      json.writeNumberField("version", request.versionNumber());
      json.writeStringField("state", task.state());
      json.writeNumberField("attempt", task.attempt());
      json.writeFieldName("context");
      // The store keeps the context as a JSON object's text already; no need to parse it again.
      String context = task.context().isBlank() ? "{}" : task.context();
      json.writeRawValue(context);
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.write('\n');
    return out.toByteArray();
  }

  /** The variables added to the inherited environment. */
  static Map<String, String> environment(ActionRequest request) {
    Task task = request.task();
    return Map.of("FSM_TASK_ID", task.id(), "FSM_MACHINE", task.machine(), "FSM_STATE",
        task.state(), "FSM_ATTEMPT", Integer.toString(task.attempt()), "FSM_RUNNER",
        request.runner());
  }
}
