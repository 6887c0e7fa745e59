package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.task.TaskHistory;
import java.io.IOException;
import java.util.List;

/** {@link Operations#importTasks}: a batch of an export's tasks, written all or none. */
public record ImportTasks(List<TaskHistory> tasks) implements Request<Boolean> {

  static final String OP = "importTasks";

  public ImportTasks {
    tasks = List.copyOf(tasks);
  }

  static ImportTasks from(Arguments a) {
    return new ImportTasks(a.get(Args.TASK_HISTORIES));
  }

  @Override
  public String op() {
    return OP;
  }

  @Override
  public boolean changes() {
    return true;
  }

  @Override
  public void writeArguments(JsonGenerator g) throws IOException {
    Args.TASK_HISTORIES.write(g, tasks);
  }

  /** True once written: the answer carries nothing else. */
  @Override
  public Codec<Boolean> result() {
    return Scalars.BOOLEAN;
  }

  @Override
  public Boolean apply(Operations operations, String owner) {
    operations.importTasks(tasks);
    return true;
  }
}
