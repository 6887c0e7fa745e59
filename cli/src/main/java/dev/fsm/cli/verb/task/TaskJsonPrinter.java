package dev.fsm.cli.verb.task;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * Prints a task exactly as {@code Json.print(out, TaskJson.task(task))} does, with Jackson's
 * streaming API only: loading ObjectMapper would cost the fast send path tens of milliseconds.
 * {@link TaskJson} stays the reference for the keys; a test holds the two to the same output.
 */
final class TaskJsonPrinter {

  private static final JsonFactory JSON = new JsonFactory();

  private TaskJsonPrinter() {}

  /** Prints the task's document, indented, and a line break. */
  static void print(PrintWriter out, Task t) {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(text)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeStringField("id", t.id());
      g.writeStringField("machine", t.machine());
      g.writeStringField("version", t.version());
      g.writeStringField("state", t.state());
      g.writeStringField("status", t.status().word());
      g.writeFieldName("context");
      context(g, t.context());
      g.writeNumberField("attempt", t.attempt());
      g.writeArrayFieldStart("errors");
      for (TaskError e : t.errors()) {
        g.writeStartObject();
        g.writeStringField("time", JsonTime.of(e.time()));
        g.writeStringField("message", e.message());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeStringField("created", JsonTime.of(t.created()));
      g.writeStringField("state_entered", JsonTime.of(t.stateEntered()));
      g.writeStringField("last_attempt", JsonTime.of(t.lastAttempt()));
      g.writeStringField("due", JsonTime.of(t.due()));
      g.writeFieldName("lease");
      lease(g, t.lease());
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write JSON", e);
    }
    out.println(text);
  }

  /**
   * Copies the stored context, which the engine keeps as compact JSON written by Jackson's tree
   * model, so copying token by token prints what reading it as a tree would.
   */
  private static void context(JsonGenerator g, String context) throws IOException {
    try (JsonParser p = JSON.createParser(context)) {
      p.nextToken();
      g.copyCurrentStructure(p);
    }
  }

  private static void lease(JsonGenerator g, Lease lease) throws IOException {
    if (lease == null) {
      g.writeNull();
      return;
    }
    g.writeStartObject();
    g.writeStringField("owner", lease.owner());
    g.writeStringField("until", JsonTime.of(lease.until()));
    g.writeEndObject();
  }
}
