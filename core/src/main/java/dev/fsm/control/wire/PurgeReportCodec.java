package dev.fsm.control.wire;

import static dev.fsm.control.wire.Wire.nextField;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.operations.PurgeReport;
import dev.fsm.store.TaskCount;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/** What a purge deleted or counted, on the wire. */
public final class PurgeReportCodec implements Codec<PurgeReport> {

  public static final Codec<PurgeReport> REPORT = new PurgeReportCodec();

  private PurgeReportCodec() {}

  @Override
  public void write(JsonGenerator g, PurgeReport r) throws IOException {
    g.writeStartObject();
    g.writeFieldName("purged");
    TaskCountCodec.LIST.write(g, r.purged());
    g.writeBooleanField("dryRun", r.dryRun());
    g.writeNumberField("batches", r.batches());
    Scalars.DURATION.write(g, "longestHold", r.longestHold());
    Scalars.DURATION.write(g, "took", r.took());
    g.writeEndObject();
  }

  @Override
  public PurgeReport read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    List<TaskCount> purged = List.of();
    boolean dryRun = false;
    int batches = 0;
    Duration longest = Duration.ZERO;
    Duration took = Duration.ZERO;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "purged" -> purged = TaskCountCodec.LIST.read(p);
        case "dryRun" -> dryRun = p.getBooleanValue();
        case "batches" -> batches = p.getIntValue();
        case "longestHold" -> longest = Scalars.DURATION.read(p);
        case "took" -> took = Scalars.DURATION.read(p);
        default -> p.skipChildren();
      }
    }
    return new PurgeReport(purged, dryRun, batches, longest, took);
  }
}
