package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.store.VersionCount;
import java.io.IOException;
import java.util.List;

/** {@link Operations#versionCounts}: one machine's task counts per version. */
public record VersionCounts(String machine) implements Request<List<VersionCount>> {

  static final String OP = "versionCounts";

  static VersionCounts from(Arguments a) {
    return new VersionCounts(a.get(Args.MACHINE));
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
  public Codec<List<VersionCount>> result() {
    return VersionCountCodec.LIST;
  }

  @Override
  public List<VersionCount> apply(Operations operations, String owner) {
    return operations.versionCounts(machine);
  }
}
