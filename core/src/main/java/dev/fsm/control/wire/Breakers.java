package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.MachineBreaker;
import dev.fsm.operations.Operations;
import java.util.List;

/** {@link Operations#breakers}: every machine's circuit breaker, as its runner sees it. */
public record Breakers() implements Request<List<MachineBreaker>> {

  static final String OP = "breakers";

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
  public Codec<List<MachineBreaker>> result() {
    return MachineBreakerCodec.LIST;
  }

  @Override
  public List<MachineBreaker> apply(Operations operations, String owner) {
    return operations.breakers();
  }
}
