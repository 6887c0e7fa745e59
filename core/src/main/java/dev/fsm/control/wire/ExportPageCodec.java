package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.store.transfer.ExportPage;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A page of an export on the wire: its tasks, each with its history, and where the next starts. */
public final class ExportPageCodec implements Codec<ExportPage> {

  public static final Codec<ExportPage> PAGE = new ExportPageCodec();

  private ExportPageCodec() {}

  @Override
  public void write(JsonGenerator g, ExportPage page) throws IOException {
    g.writeStartObject();
    g.writeArrayFieldStart("tasks");
    for (TaskHistory t : page.tasks()) {
      g.writeStartObject();
      TaskCodec.TASK.write(g, "task", t.task());
      TransitionCodec.LIST.write(g, "history", t.history());
      g.writeEndObject();
    }
    g.writeEndArray();
    STRING.write(g, "next", page.next());
    g.writeEndObject();
  }

  @Override
  public ExportPage read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    List<TaskHistory> tasks = new ArrayList<>();
    String next = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "tasks" -> {
          Wire.expect(p, JsonToken.START_ARRAY);
          while (Wire.nextItem(p)) {
            tasks.add(taskHistory(p));
          }
        }
        case "next" -> next = STRING.read(p);
        default -> p.skipChildren();
      }
    }
    return new ExportPage(tasks, next);
  }

  private static TaskHistory taskHistory(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    Task task = null;
    List<Transition> history = List.of();
    while (nextField(p)) {
      switch (p.currentName()) {
        case "task" -> task = TaskCodec.TASK.read(p);
        case "history" -> history = TransitionCodec.LIST.read(p);
        default -> p.skipChildren();
      }
    }
    if (task == null) {
      throw new IOException("an export page's task has no \"task\" field");
    }
    return new TaskHistory(task, history);
  }
}
