package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.task.Task;
import java.io.IOException;

/** {@link Operations#signal}: an event for a task waiting on the outside world. */
public record Signal(String id, String event, String context) implements Request<Task> {

  static final String OP = "signal";

  static Signal from(Arguments a) {
    return new Signal(a.get(Args.ID), a.get(Args.EVENT), a.get(Args.CONTEXT));
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
    Args.ID.write(g, id);
    Args.EVENT.write(g, event);
    Args.CONTEXT.write(g, context);
  }

  @Override
  public Codec<Task> result() {
    return TaskCodec.TASK;
  }

  @Override
  public Task apply(Operations operations, String owner) {
    return operations.signal(id, event, context);
  }
}
