package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.nextItem;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.operations.UpgradeReport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What an upgrade did per older version, on the wire. */
public final class UpgradeReportCodec implements Codec<UpgradeReport> {

  public static final Codec<UpgradeReport> REPORT = new UpgradeReportCodec();

  private UpgradeReportCodec() {}

  @Override
  public void write(JsonGenerator g, UpgradeReport r) throws IOException {
    g.writeStartObject();
    STRING.write(g, "machine", r.machine());
    g.writeNumberField("number", r.number());
    STRING.write(g, "version", r.version());
    g.writeBooleanField("registered", r.registered());
    STRING.write(g, "strategy", r.strategy());
    g.writeArrayFieldStart("older");
    for (UpgradeReport.FromVersion v : r.older()) {
      g.writeStartObject();
      g.writeNumberField("number", v.number());
      STRING.write(g, "version", v.version());
      g.writeNumberField("continued", v.continued());
      g.writeNumberField("moved", v.moved());
      g.writeNumberField("movingAfterAttempt", v.movingAfterAttempt());
      g.writeObjectFieldStart("mayFault");
      for (Map.Entry<String, Integer> e : v.mayFault().entrySet()) {
        g.writeNumberField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeObjectFieldStart("faulted");
      for (Map.Entry<String, Integer> e : v.faulted().entrySet()) {
        g.writeNumberField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeNumberField("aborted", v.aborted());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeBooleanField("dryRun", r.dryRun());
    g.writeEndObject();
  }

  @Override
  public UpgradeReport read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String machine = null;
    int number = 0;
    String version = null;
    boolean registered = false;
    String strategy = null;
    List<UpgradeReport.FromVersion> older = new ArrayList<>();
    boolean dryRun = false;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "machine" -> machine = string(p);
        case "number" -> number = p.getIntValue();
        case "version" -> version = string(p);
        case "registered" -> registered = p.getBooleanValue();
        case "strategy" -> strategy = string(p);
        case "older" -> {
          Wire.expect(p, JsonToken.START_ARRAY);
          while (nextItem(p)) {
            older.add(fromVersion(p));
          }
        }
        case "dryRun" -> dryRun = p.getBooleanValue();
        default -> p.skipChildren();
      }
    }
    return new UpgradeReport(machine, number, version, registered, strategy, older, dryRun);
  }

  private static UpgradeReport.FromVersion fromVersion(JsonParser p) throws IOException {
    int number = 0;
    String version = null;
    int continued = 0;
    int moved = 0;
    int later = 0;
    Map<String, Integer> mayFault = new TreeMap<>();
    Map<String, Integer> faulted = new TreeMap<>();
    int aborted = 0;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "number" -> number = p.getIntValue();
        case "version" -> version = string(p);
        case "continued" -> continued = p.getIntValue();
        case "moved" -> moved = p.getIntValue();
        case "movingAfterAttempt" -> later = p.getIntValue();
        case "mayFault" -> {
          Wire.expect(p, JsonToken.START_OBJECT);
          while (nextField(p)) {
            mayFault.put(p.currentName(), p.getIntValue());
          }
        }
        case "faulted" -> {
          Wire.expect(p, JsonToken.START_OBJECT);
          while (nextField(p)) {
            faulted.put(p.currentName(), p.getIntValue());
          }
        }
        case "aborted" -> aborted = p.getIntValue();
        default -> p.skipChildren();
      }
    }
    return new UpgradeReport.FromVersion(number, version, continued, moved, later, mayFault,
        faulted, aborted);
  }
}
