package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import java.io.IOException;
import java.util.List;

/** {@link Operations#takenIds}: which of an import's ids the store has. */
public record TakenIds(List<String> ids) implements Request<List<String>> {

  static final String OP = "takenIds";

  public TakenIds {
    ids = List.copyOf(ids);
  }

  static TakenIds from(Arguments a) {
    return new TakenIds(a.get(Args.IDS));
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
    Args.IDS.write(g, ids);
  }

  @Override
  public Codec<List<String>> result() {
    return Scalars.STRINGS;
  }

  @Override
  public List<String> apply(Operations operations, String owner) {
    return operations.takenIds(ids);
  }
}
