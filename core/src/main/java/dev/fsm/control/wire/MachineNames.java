package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import java.util.List;

/** {@link Operations#machineNames}: every machine with a registered version. */
public record MachineNames() implements Request<List<String>> {

  static final String OP = "machineNames";

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
  public Codec<List<String>> result() {
    return Scalars.STRINGS;
  }

  @Override
  public List<String> apply(Operations operations, String owner) {
    return operations.machineNames();
  }
}
