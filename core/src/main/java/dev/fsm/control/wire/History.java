package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.util.List;

/** {@link Operations#history}: a task's transitions, oldest first. */
public record History(String id) implements Request<List<Transition>> {

  static final String OP = "history";

  static History from(Arguments a) {
    return new History(a.get(Args.ID));
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
  public Codec<List<Transition>> result() {
    return TransitionCodec.LIST;
  }

  @Override
  public List<Transition> apply(Operations operations, String owner) {
    return operations.history(id);
  }
}
