package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.operations.SendOptions;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import java.io.IOException;
import java.time.Instant;

/**
 * {@link Operations#send}: one operator command to one task. {@code afterStep} and {@code typed}
 * go on the wire only when set, so a plain command's request reads as it always did.
 */
public record Send(String id, Command command, Instant until, String reason, String to,
    boolean afterStep, String typed) implements Request<Task> {

  static final String OP = "send";

  /** A command with no {@code --after-step}, named by its own word. */
  public Send(String id, Command command, Instant until, String reason, String to) {
    this(id, command, until, reason, to, false, null);
  }

  /** A command with these options. */
  public Send(String id, Command command, SendOptions o) {
    this(id, command, o.until(), o.reason(), o.to(), o.afterStep(), o.typed());
  }

  static Send from(Arguments a) {
    return new Send(a.get(Args.ID), a.get(Args.COMMAND), a.get(Args.UNTIL), a.get(Args.REASON),
        a.get(Args.TO), a.get(Args.AFTER_STEP), a.get(Args.TYPED));
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
    Args.ID.write(g, id);
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
  }

  @Override
  public Codec<Task> result() {
    return TaskCodec.TASK;
  }

  @Override
  public Task apply(Operations operations, String owner) {
    return operations.send(id, command, new SendOptions(until, reason, to, afterStep, typed));
  }
}
