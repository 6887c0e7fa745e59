package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.store.MachineVersion;
import java.util.List;

/** {@link Operations#allVersions}: every version of every machine, for an export. */
public record AllVersions() implements Request<List<MachineVersion>> {

  static final String OP = "allVersions";

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
  public Codec<List<MachineVersion>> result() {
    return MachineVersionCodec.LIST;
  }

  @Override
  public List<MachineVersion> apply(Operations operations, String owner) {
    return operations.allVersions();
  }
}
