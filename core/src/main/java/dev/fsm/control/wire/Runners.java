package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.operations.RunnerReport;

/** {@link Operations#runners}: the runners seen in the last hour, with the store's time. */
public record Runners() implements Request<RunnerReport> {

  static final String OP = "runners";

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
  public Codec<RunnerReport> result() {
    return RunnerReportCodec.REPORT;
  }

  @Override
  public RunnerReport apply(Operations operations, String owner) {
    return operations.runners();
  }
}
