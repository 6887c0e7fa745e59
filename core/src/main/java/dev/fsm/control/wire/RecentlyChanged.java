package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.ListPages;
import dev.fsm.operations.Operations;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import java.io.IOException;
import java.util.List;

/** {@link Operations#recentlyChanged}: the tasks changed most recently, without contexts. */
public record RecentlyChanged(TaskQuery filter) implements Request<List<Task>> {

  static final String OP = "recentlyChanged";

  static RecentlyChanged from(Arguments a) {
    return new RecentlyChanged(a.get(Args.QUERY));
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
    Args.QUERY.write(g, filter);
  }

  @Override
  public Codec<List<Task>> result() {
    return TaskCodec.TASKS;
  }

  @Override
  public List<Task> apply(Operations operations, String owner) {
    ListPages.checkRequest(filter);
    return operations.recentlyChanged(filter);
  }
}
