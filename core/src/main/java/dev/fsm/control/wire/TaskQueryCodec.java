package dev.fsm.control.wire;

import static dev.fsm.control.wire.ShownStatusesCodec.STATUSES;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.control.wire.Wire.ProtocolException;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.ShownStatus;
import java.io.IOException;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A page of a task listing; empty filters travel as null, the statuses as an array of words, the
 * order and sort as lower-case words.
 */
public final class TaskQueryCodec implements Codec<TaskQuery> {

  public static final Codec<TaskQuery> QUERY = new TaskQueryCodec();

  private TaskQueryCodec() {}

  @Override
  public void write(JsonGenerator g, TaskQuery q) throws IOException {
    g.writeStartObject();
    STRING.write(g, "machine", q.machine().orElse(null));
    STRING.write(g, "state", q.state().orElse(null));
    STATUSES.write(g, "statuses", q.statuses());
    STRING.write(g, "afterId", q.afterId().orElse(null));
    g.writeNumberField("limit", q.limit());
    g.writeStringField("order", q.order().name().toLowerCase(Locale.ROOT));
    g.writeStringField("sort", q.sort().name().toLowerCase(Locale.ROOT));
    if (q.afterKey().isPresent()) {
      Scalars.INSTANT.write(g, "afterKey", q.afterKey().get());
    }
    g.writeEndObject();
  }

  @Override
  public TaskQuery read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String machine = null;
    String state = null;
    Set<ShownStatus> statuses = Set.of();
    String afterId = null;
    int limit = 0;
    TaskQuery.Order order = TaskQuery.Order.ASCENDING;
    TaskQuery.Sort sort = TaskQuery.Sort.ID;
    Instant afterKey = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "machine" -> machine = string(p);
        case "state" -> state = string(p);
        case "statuses" -> statuses = STATUSES.read(p);
        case "afterId" -> afterId = string(p);
        case "limit" -> limit = p.getIntValue();
        case "order" -> order = word(TaskQuery.Order.class, string(p));
        case "sort" -> sort = word(TaskQuery.Sort.class, string(p));
        case "afterKey" -> afterKey = Scalars.INSTANT.read(p);
        default -> p.skipChildren();
      }
    }
    return new TaskQuery(Optional.ofNullable(machine), Optional.ofNullable(state),
        statuses, Optional.ofNullable(afterId), limit, order, sort,
        Optional.ofNullable(afterKey));
  }

  private static <E extends Enum<E>> E word(Class<E> type, String word)
      throws ProtocolException {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(word)) {
        return e;
      }
    }
    throw new ProtocolException("unknown " + type.getSimpleName().toLowerCase(Locale.ROOT) + " "
        + word);
  }
}
