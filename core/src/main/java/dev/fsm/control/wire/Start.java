package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.Operations;
import dev.fsm.task.Task;
import java.io.IOException;
import java.util.List;

/** {@link Operations#start}: the tasks stream out and back, never whole in memory as text. */
public record Start(MachineSource source, List<NewTask> tasks) implements Request<List<Task>> {

  static final String OP = "start";

  static Start from(Arguments a) {
    return new Start(a.get(Args.SOURCE), a.get(Args.TASKS));
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
    Args.SOURCE.write(g, source);
    Args.TASKS.write(g, tasks);
  }

  @Override
  public Codec<List<Task>> result() {
    return TaskCodec.TASKS;
  }

  @Override
  public List<Task> apply(Operations operations, String owner) {
    return operations.start(source, tasks);
  }
}
