package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.operations.Operations;
import dev.fsm.operations.TaskSelector;
import dev.fsm.task.Command;
import java.io.IOException;
import java.time.Instant;

/** {@link Operations#sendAll}: one operator command to every task a selector matches. */
public record SendAll(TaskSelector selector, Command command, Instant until, String reason,
    String to, boolean dryRun) implements Request<BulkSendReport> {

  static final String OP = "sendAll";

  static SendAll from(Arguments a) {
    return new SendAll(a.get(Args.SELECTOR), a.get(Args.COMMAND), a.get(Args.UNTIL),
        a.get(Args.REASON), a.get(Args.TO), a.get(Args.DRY_RUN));
  }

  @Override
  public String op() {
    return OP;
  }

  @Override
  public void writeArguments(JsonGenerator g) throws IOException {
    Args.SELECTOR.write(g, selector);
    Args.COMMAND.write(g, command);
    Args.UNTIL.write(g, until);
    Args.REASON.write(g, reason);
    Args.TO.write(g, to);
    Args.DRY_RUN.write(g, dryRun);
  }

  @Override
  public Codec<BulkSendReport> result() {
    return BulkSendReportCodec.REPORT;
  }

  @Override
  public BulkSendReport apply(Operations operations, String owner) {
    return operations.sendAll(selector, command, until, reason, to, dryRun);
  }
}
