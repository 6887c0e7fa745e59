package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.store.MachineVersion;
import java.io.IOException;
import java.util.List;

/** {@link Operations#versions}: every version of a machine. */
public record Versions(String machine) implements Request<List<MachineVersion>> {

  static final String OP = "versions";

  static Versions from(Arguments a) {
    return new Versions(a.get(Args.MACHINE));
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
  public Codec<List<MachineVersion>> result() {
    return MachineVersionCodec.LIST;
  }

  @Override
  public List<MachineVersion> apply(Operations operations, String owner) {
    return operations.versions(machine);
  }
}
