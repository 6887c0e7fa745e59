package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import java.io.IOException;
import java.util.List;

/** {@link Operations#list}: a page of tasks; {@code list} on the wire. */
public record ListTasks(TaskQuery query) implements Request<List<Task>> {

  static final String OP = "list";

  static ListTasks from(Arguments a) {
    return new ListTasks(a.get(Args.QUERY));
  }

  @Override
  public String op() {
    return OP;
  }

  @Override
  public boolean changes() {
    return false;
  }

  @Override
  public void writeArguments(JsonGenerator g) throws IOException {
    Args.QUERY.write(g, query);
  }

  @Override
  public Codec<List<Task>> result() {
    return TaskCodec.TASKS;
  }

  @Override
  public List<Task> apply(Operations operations, String owner) {
    return operations.list(query);
  }
}
