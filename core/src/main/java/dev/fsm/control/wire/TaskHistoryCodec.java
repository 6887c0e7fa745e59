package dev.fsm.control.wire;

import static dev.fsm.control.wire.Wire.nextField;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.util.List;

/** A task with its whole history on the wire, as an export or an import carries it. */
public final class TaskHistoryCodec implements Codec<TaskHistory> {

  public static final Codec<TaskHistory> TASK_HISTORY = new TaskHistoryCodec();
  public static final Codec<List<TaskHistory>> LIST = Codec.list(TASK_HISTORY);

  private TaskHistoryCodec() {}

  @Override
  public void write(JsonGenerator g, TaskHistory t) throws IOException {
    g.writeStartObject();
    TaskCodec.TASK.write(g, "task", t.task());
    TransitionCodec.LIST.write(g, "history", t.history());
    g.writeEndObject();
  }

  @Override
  public TaskHistory read(JsonParser p) throws IOException {
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
      throw new Wire.ProtocolException("a task with its history has no \"task\" field");
    }
    return new TaskHistory(task, history);
  }
}
