package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.store.TaskCount;
import java.util.List;

/** {@link Operations#counts}: task counts per machine, state and status. */
public record Counts() implements Request<List<TaskCount>> {

  static final String OP = "counts";

  @Override
  public String op() {
    return OP;
  }

  @Override
  public boolean changes() {
    return false;
  }

  @Override
  public void writeArguments(JsonGenerator g) {
    // No arguments.
  }

  @Override
  public Codec<List<TaskCount>> result() {
    return TaskCountCodec.LIST;
  }

  @Override
  public List<TaskCount> apply(Operations operations, String owner) {
    return operations.counts();
  }
}
