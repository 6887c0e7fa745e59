package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import java.io.IOException;
import java.util.List;

/** {@link Operations#idsStartingWith}: ids for completion and short ids. */
public record Ids(String prefix, int limit) implements Request<List<String>> {

  static final String OP = "idsStartingWith";

  static Ids from(Arguments a) {
    return new Ids(a.get(Args.PREFIX), a.get(Args.LIMIT));
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
    Args.PREFIX.write(g, prefix);
    Args.LIMIT.write(g, limit);
  }

  @Override
  public Codec<List<String>> result() {
    return Scalars.STRINGS;
  }

  @Override
  public List<String> apply(Operations operations, String owner) {
    return operations.idsStartingWith(prefix, limit);
  }
}
