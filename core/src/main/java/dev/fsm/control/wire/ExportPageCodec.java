package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.store.transfer.ExportPage;
import dev.fsm.task.TaskHistory;
import java.io.IOException;
import java.util.List;

/** A page of an export on the wire: its tasks, each with its history, and where the next starts. */
public final class ExportPageCodec implements Codec<ExportPage> {

  public static final Codec<ExportPage> PAGE = new ExportPageCodec();

  private ExportPageCodec() {}

  @Override
  public void write(JsonGenerator g, ExportPage page) throws IOException {
    g.writeStartObject();
    TaskHistoryCodec.LIST.write(g, "tasks", page.tasks());
    STRING.write(g, "next", page.next());
    g.writeEndObject();
  }

  @Override
  public ExportPage read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    List<TaskHistory> tasks = List.of();
    String next = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "tasks" -> tasks = TaskHistoryCodec.LIST.read(p);
        case "next" -> next = STRING.read(p);
        default -> p.skipChildren();
      }
    }
    return new ExportPage(tasks, next);
  }
}
