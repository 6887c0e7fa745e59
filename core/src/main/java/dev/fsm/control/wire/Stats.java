package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.engine.StateStats;
import dev.fsm.operations.Operations;
import java.io.IOException;
import java.util.List;

/** {@link Operations#stats}: per-state statistics of one machine or all. */
public record Stats(String machine) implements Request<List<StateStats>> {

  static final String OP = "stats";

  static Stats from(Arguments a) {
    return new Stats(a.get(Args.MACHINE));
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
    Args.MACHINE.write(g, machine);
  }

  @Override
  public Codec<List<StateStats>> result() {
    return StateStatsCodec.LIST;
  }

  @Override
  public List<StateStats> apply(Operations operations, String owner) {
    return operations.stats(machine);
  }
}
