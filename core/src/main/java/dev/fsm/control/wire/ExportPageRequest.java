package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import dev.fsm.store.transfer.ExportPage;
import java.io.IOException;

/** {@link Operations#exportPage}: tasks with their histories, for an export. */
public record ExportPageRequest(String after, int limit) implements Request<ExportPage> {

  static final String OP = "exportPage";

  static ExportPageRequest from(Arguments a) {
    return new ExportPageRequest(a.get(Args.AFTER), a.get(Args.LIMIT));
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
    Args.AFTER.write(g, after);
    Args.LIMIT.write(g, limit);
  }

  @Override
  public Codec<ExportPage> result() {
    return ExportPageCodec.PAGE;
  }

  @Override
  public ExportPage apply(Operations operations, String owner) {
    return operations.exportPage(after, limit);
  }
}
