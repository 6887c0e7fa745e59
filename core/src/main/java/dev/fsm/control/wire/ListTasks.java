package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.ListPages;
import dev.fsm.operations.Operations;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import java.io.IOException;
import java.util.List;

/**
 * {@link Operations#list}: a page of tasks; {@code list} on the wire, with {@code contexts}
 * written only when false, so a list with contexts reads as it always did.
 */
public record ListTasks(TaskQuery query, boolean contexts) implements Request<List<Task>> {

  static final String OP = "list";

  /** A list with the tasks' contexts. */
  public ListTasks(TaskQuery query) {
    this(query, true);
  }

  static ListTasks from(Arguments a) {
    return new ListTasks(a.get(Args.QUERY), a.get(Args.CONTEXTS));
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
    if (!contexts) {
      Args.CONTEXTS.write(g, false);
    }
  }

  @Override
  public Codec<List<Task>> result() {
    return TaskCodec.TASKS;
  }

  @Override
  public List<Task> apply(Operations operations, String owner) {
    // A client pages (ListPages); one asking for more at once could fill the runner's heap.
    ListPages.checkRequest(query);
    return operations.list(query, contexts);
  }
}
