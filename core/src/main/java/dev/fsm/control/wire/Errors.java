package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.FsmException;
import dev.fsm.engine.ErrorReport;
import dev.fsm.operations.Operations;
import dev.fsm.store.ErrorQuery;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

/** {@link Operations#errors}: the attempt errors since a time, grouped on the server. */
public record Errors(Instant since, String machine, String state, int limit)
    implements Request<ErrorReport> {

  static final String OP = "errors";

  /** The request for a query and a number of groups. */
  public static Errors of(ErrorQuery query, int limit) {
    return new Errors(query.since(), query.machine().orElse(null), query.state().orElse(null),
        limit);
  }

  static Errors from(Arguments a) {
    return new Errors(a.get(Args.SINCE), a.get(Args.MACHINE), a.get(Args.STATE),
        a.get(Args.LIMIT));
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
    Args.SINCE.write(g, since);
    Args.MACHINE.write(g, machine);
    Args.STATE.write(g, state);
    Args.LIMIT.write(g, limit);
  }

  @Override
  public Codec<ErrorReport> result() {
    return ErrorReportCodec.REPORT;
  }

  @Override
  public ErrorReport apply(Operations operations, String owner) {
    if (since == null || limit < 1) {
      throw new FsmException("an errors request must give its start (--since) and a limit of at"
          + " least 1");
    }
    return operations.errors(new ErrorQuery(since, Optional.ofNullable(machine),
        Optional.ofNullable(state)), limit);
  }
}
