package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import java.io.IOException;
import java.time.Instant;

/** {@link Operations#send}: one operator command to one task. */
public record Send(String id, Command command, Instant until, String reason, String to)
    implements Request<Task> {

  static final String OP = "send";

  static Send from(Arguments a) {
    return new Send(a.get(Args.ID), a.get(Args.COMMAND), a.get(Args.UNTIL), a.get(Args.REASON),
        a.get(Args.TO));
  }

  @Override
  public String op() {
    return OP;
  }

  @Override
  public void writeArguments(JsonGenerator g) throws IOException {
    Args.ID.write(g, id);
    Args.COMMAND.write(g, command);
    Args.UNTIL.write(g, until);
    Args.REASON.write(g, reason);
    Args.TO.write(g, to);
  }

  @Override
  public Codec<Task> result() {
    return TaskCodec.TASK;
  }

  @Override
  public Task apply(Operations operations, String owner) {
    return operations.send(id, command, until, reason, to);
  }
}
