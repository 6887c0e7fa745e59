package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.store.MachineVersion;
import java.io.IOException;
import java.time.Instant;

/** {@link Operations#importVersion}: a machine version from an export, registered. */
public record ImportVersion(String machine, String definition, Instant registered)
    implements Request<MachineVersion> {

  static final String OP = "importVersion";

  static ImportVersion from(Arguments a) {
    return new ImportVersion(a.get(Args.MACHINE), a.get(Args.DEFINITION),
        a.get(Args.REGISTERED));
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
    Args.MACHINE.write(g, machine);
    Args.DEFINITION.write(g, definition);
    Args.REGISTERED.write(g, registered);
  }

  @Override
  public Codec<MachineVersion> result() {
    return MachineVersionCodec.VERSION;
  }

  @Override
  public MachineVersion apply(Operations operations, String owner) {
    return operations.importVersion(machine, definition, registered);
  }
}
