package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.task.Task;
import java.io.IOException;
import java.util.Optional;

/** {@link Operations#get}: one task, or none. */
public record Get(String id) implements Request<Optional<Task>> {

  static final String OP = "get";

  static Get from(Arguments a) {
    return new Get(a.get(Args.ID));
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
    Args.ID.write(g, id);
  }

  @Override
  public Codec<Optional<Task>> result() {
    return TaskCodec.OPTIONAL;
  }

  @Override
  public Optional<Task> apply(Operations operations, String owner) {
    return operations.get(id);
  }
}
