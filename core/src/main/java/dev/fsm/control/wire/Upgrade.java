package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.Operations;
import dev.fsm.operations.UpgradeReport;
import java.io.IOException;

/** {@link Operations#upgrade}: register the file, apply its strategy to older tasks. */
public record Upgrade(MachineSource source, boolean dryRun) implements Request<UpgradeReport> {

  static final String OP = "upgrade";

  static Upgrade from(Arguments a) {
    return new Upgrade(a.get(Args.SOURCE), a.get(Args.DRY_RUN));
  }

  @Override
  public String op() {
    return OP;
  }

  @Override
  public boolean changes() {
    return !dryRun;
  }

  @Override
  public void writeArguments(JsonGenerator g) throws IOException {
    Args.SOURCE.write(g, source);
    Args.DRY_RUN.write(g, dryRun);
  }

  @Override
  public Codec<UpgradeReport> result() {
    return UpgradeReportCodec.REPORT;
  }

  @Override
  public UpgradeReport apply(Operations operations, String owner) {
    return operations.upgrade(source, dryRun);
  }
}
