package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.INSTANT;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Scalars.STRINGS;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.operations.RunnerReport;
import dev.fsm.store.RunnerRecord;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The runners' report on the wire: the store's time, each runner's record, and the ids of
 * those known to have ended.
 */
final class RunnerReportCodec implements Codec<RunnerReport> {

  static final Codec<RunnerReport> REPORT = new RunnerReportCodec();

  private static final Codec<List<RunnerRecord>> RECORDS = Codec.list(new RecordCodec());

  private RunnerReportCodec() {}

  @Override
  public void write(JsonGenerator g, RunnerReport report) throws IOException {
    g.writeStartObject();
    INSTANT.write(g, "at", report.at());
    RECORDS.write(g, "runners", report.runners());
    STRINGS.write(g, "ended", List.copyOf(new TreeSet<>(report.ended())));
    g.writeEndObject();
  }

  @Override
  public RunnerReport read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    Instant at = null;
    List<RunnerRecord> runners = List.of();
    List<String> ended = List.of();
    while (nextField(p)) {
      switch (p.currentName()) {
        case "at" -> at = INSTANT.read(p);
        case "runners" -> runners = RECORDS.read(p);
        case "ended" -> ended = STRINGS.read(p);
        default -> p.skipChildren();
      }
    }
    return new RunnerReport(at, runners, Set.copyOf(ended));
  }

  /** One runner's record. */
  private static final class RecordCodec implements Codec<RunnerRecord> {

    @Override
    public void write(JsonGenerator g, RunnerRecord r) throws IOException {
      g.writeStartObject();
      STRING.write(g, "id", r.id());
      STRING.write(g, "host", r.host());
      g.writeNumberField("pid", r.pid());
      g.writeNumberField("workers", r.workers());
      STRINGS.write(g, "machines", r.machines());
      INSTANT.write(g, "started", r.started());
      INSTANT.write(g, "seen", r.seen());
      g.writeNumberField("held", r.held());
      g.writeNumberField("rate", r.rate());
      g.writeBooleanField("stopped", r.stopped());
      g.writeEndObject();
    }

    @Override
    public RunnerRecord read(JsonParser p) throws IOException {
      Wire.expect(p, JsonToken.START_OBJECT);
      String id = null;
      String host = null;
      long pid = 0;
      int workers = 0;
      List<String> machines = List.of();
      Instant started = null;
      Instant seen = null;
      int held = 0;
      double rate = 0;
      boolean stopped = false;
      while (nextField(p)) {
        switch (p.currentName()) {
          case "id" -> id = string(p);
          case "host" -> host = string(p);
          case "pid" -> pid = p.getLongValue();
          case "workers" -> workers = p.getIntValue();
          case "machines" -> machines = STRINGS.read(p);
          case "started" -> started = INSTANT.read(p);
          case "seen" -> seen = INSTANT.read(p);
          case "held" -> held = p.getIntValue();
          case "rate" -> rate = p.getDoubleValue();
          case "stopped" -> stopped = p.getBooleanValue();
          default -> p.skipChildren();
        }
      }
      return new RunnerRecord(id, host, pid, workers, machines, started, seen, held, rate,
          stopped);
    }
  }
}
