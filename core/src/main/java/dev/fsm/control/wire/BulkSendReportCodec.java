package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Scalars.STRINGS;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.nextItem;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.operations.BulkSendReport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** What a bulk send changed and refused, on the wire. */
public final class BulkSendReportCodec implements Codec<BulkSendReport> {

  public static final Codec<BulkSendReport> REPORT = new BulkSendReportCodec();

  private BulkSendReportCodec() {}

  @Override
  public void write(JsonGenerator g, BulkSendReport r) throws IOException {
    g.writeStartObject();
    g.writeNumberField("matched", r.matched());
    STRINGS.write(g, "changed", r.changed());
    g.writeArrayFieldStart("refused");
    for (BulkSendReport.Refusal refusal : r.refused()) {
      g.writeStartObject();
      STRING.write(g, "id", refusal.id());
      STRING.write(g, "reason", refusal.reason());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeBooleanField("dryRun", r.dryRun());
    g.writeEndObject();
  }

  @Override
  public BulkSendReport read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    int matched = 0;
    List<String> changed = List.of();
    List<BulkSendReport.Refusal> refused = new ArrayList<>();
    boolean dryRun = false;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "matched" -> matched = p.getIntValue();
        case "changed" -> changed = STRINGS.read(p);
        case "refused" -> {
          Wire.expect(p, JsonToken.START_ARRAY);
          while (nextItem(p)) {
            refused.add(refusal(p));
          }
        }
        case "dryRun" -> dryRun = p.getBooleanValue();
        default -> p.skipChildren();
      }
    }
    return new BulkSendReport(matched, changed, refused, dryRun);
  }

  private static BulkSendReport.Refusal refusal(JsonParser p) throws IOException {
    String id = null;
    String reason = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "id" -> id = string(p);
        case "reason" -> reason = string(p);
        default -> p.skipChildren();
      }
    }
    return new BulkSendReport.Refusal(id, reason);
  }
}
