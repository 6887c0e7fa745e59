package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.INSTANT;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.engine.ErrorGroup;
import dev.fsm.engine.ErrorReport;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/** The grouped errors on the wire: the period's start, the totals and each group shown. */
final class ErrorReportCodec implements Codec<ErrorReport> {

  static final Codec<ErrorReport> REPORT = new ErrorReportCodec();

  private static final Codec<List<ErrorGroup>> GROUPS = Codec.list(new GroupCodec());

  private ErrorReportCodec() {}

  @Override
  public void write(JsonGenerator g, ErrorReport report) throws IOException {
    g.writeStartObject();
    INSTANT.write(g, "since", report.since());
    g.writeNumberField("errors", report.errors());
    g.writeNumberField("groupCount", report.groupCount());
    GROUPS.write(g, "groups", report.groups());
    g.writeEndObject();
  }

  @Override
  public ErrorReport read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    Instant since = null;
    long errors = 0;
    int groupCount = 0;
    List<ErrorGroup> groups = List.of();
    while (nextField(p)) {
      switch (p.currentName()) {
        case "since" -> since = INSTANT.read(p);
        case "errors" -> errors = p.getLongValue();
        case "groupCount" -> groupCount = p.getIntValue();
        case "groups" -> groups = GROUPS.read(p);
        default -> p.skipChildren();
      }
    }
    return new ErrorReport(since, errors, groupCount, groups);
  }

  /** One group. */
  private static final class GroupCodec implements Codec<ErrorGroup> {

    @Override
    public void write(JsonGenerator g, ErrorGroup e) throws IOException {
      g.writeStartObject();
      STRING.write(g, "pattern", e.pattern());
      STRING.write(g, "machine", e.machine());
      STRING.write(g, "state", e.state());
      g.writeNumberField("count", e.count());
      g.writeNumberField("tasks", e.tasks());
      INSTANT.write(g, "firstSeen", e.firstSeen());
      INSTANT.write(g, "lastSeen", e.lastSeen());
      STRING.write(g, "example", e.example());
      STRING.write(g, "exampleTask", e.exampleTask());
      g.writeEndObject();
    }

    @Override
    public ErrorGroup read(JsonParser p) throws IOException {
      Wire.expect(p, JsonToken.START_OBJECT);
      String pattern = null;
      String machine = null;
      String state = null;
      long count = 0;
      long tasks = 0;
      Instant first = null;
      Instant last = null;
      String example = null;
      String exampleTask = null;
      while (nextField(p)) {
        switch (p.currentName()) {
          case "pattern" -> pattern = string(p);
          case "machine" -> machine = string(p);
          case "state" -> state = string(p);
          case "count" -> count = p.getLongValue();
          case "tasks" -> tasks = p.getLongValue();
          case "firstSeen" -> first = INSTANT.read(p);
          case "lastSeen" -> last = INSTANT.read(p);
          case "example" -> example = string(p);
          case "exampleTask" -> exampleTask = string(p);
          default -> p.skipChildren();
        }
      }
      return new ErrorGroup(pattern, machine, state, count, tasks, first, last, example,
          exampleTask);
    }
  }
}
