package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.operations.Operations;
import dev.fsm.operations.SendOptions;
import dev.fsm.operations.TaskSelector;
import dev.fsm.task.Command;
import java.io.IOException;
import java.time.Instant;

/**
 * {@link Operations#sendAll}: one operator command to every task a selector matches. As with
 * {@link Send}, {@code afterStep} and {@code typed} go on the wire only when set.
 */
public record SendAll(TaskSelector selector, Command command, Instant until, String reason,
    String to, boolean afterStep, String typed, boolean dryRun)
    implements Request<BulkSendReport> {

  static final String OP = "sendAll";

  /** A command with no {@code --after-step}, named by its own word. */
  public SendAll(TaskSelector selector, Command command, Instant until, String reason, String to,
      boolean dryRun) {
    this(selector, command, until, reason, to, false, null, dryRun);
  }

  /** A command with these options. */
  public SendAll(TaskSelector selector, Command command, SendOptions o, boolean dryRun) {
    this(selector, command, o.until(), o.reason(), o.to(), o.afterStep(), o.typed(), dryRun);
  }

  static SendAll from(Arguments a) {
    return new SendAll(a.get(Args.SELECTOR), a.get(Args.COMMAND), a.get(Args.UNTIL),
        a.get(Args.REASON), a.get(Args.TO), a.get(Args.AFTER_STEP), a.get(Args.TYPED),
        a.get(Args.DRY_RUN));
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
    Args.SELECTOR.write(g, selector);
    Args.COMMAND.write(g, command);
    Args.UNTIL.write(g, until);
    Args.REASON.write(g, reason);
    Args.TO.write(g, to);
    if (afterStep) {
      Args.AFTER_STEP.write(g, true);
    }
    if (typed != null) {
      Args.TYPED.write(g, typed);
    }
    Args.DRY_RUN.write(g, dryRun);
  }

  @Override
  public Codec<BulkSendReport> result() {
    return BulkSendReportCodec.REPORT;
  }

  @Override
  public BulkSendReport apply(Operations operations, String owner) {
    return operations.sendAll(selector, command,
        new SendOptions(until, reason, to, afterStep, typed), dryRun);
  }
}
