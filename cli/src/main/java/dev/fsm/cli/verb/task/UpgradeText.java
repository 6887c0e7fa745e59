package dev.fsm.cli.verb.task;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.UpgradeReport;
import dev.fsm.validate.Validator;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** How {@code fsm upgrade} reports what it did: a short summary, or JSON with stable keys. */
final class UpgradeText {

  private UpgradeText() {}

  /** The strategy word of a validated machine file. */
  static String strategyOf(MachineSource source) {
    return Validator.check(source.file(), source.text()).machine().orElseThrow().upgrade().word();
  }

  static void print(PrintWriter out, UpgradeReport r) {
    String v = "v" + r.number() + " (" + r.version() + ")";
    String head = r.dryRun()
        ? (r.registered() ? "would register " + v + " as the newest version"
            : v + " is already the newest version")
        : (r.registered() ? "registered " + v + " as the newest version"
            : v + " is already the newest version");
    out.println(r.machine() + ": " + head + "; upgrade: " + r.strategy()
        + (r.dryRun() ? " (dry run: nothing changed)" : ""));
    if (r.older().isEmpty()) {
      out.println("  no unfinished tasks of older versions");
      return;
    }
    for (UpgradeReport.FromVersion f : r.older()) {
      out.println("  v" + f.number() + ": " + String.join(", ", parts(f, r)));
    }
  }

  private static List<String> parts(UpgradeReport.FromVersion f, UpgradeReport r) {
    boolean dry = r.dryRun();
    String to = "v" + r.number();
    List<String> parts = new ArrayList<>();
    if (f.continued() > 0) {
      parts.add(tasks(f.continued()) + (dry ? " would continue" : " continue") + " on v"
          + f.number());
    }
    if (f.moved() > 0) {
      parts.add(tasks(f.moved()) + (dry ? " would move" : " moved") + " to " + to);
    }
    if (f.movingAfterAttempt() > 0) {
      boolean one = f.movingAfterAttempt() == 1;
      parts.add(tasks(f.movingAfterAttempt()) + (dry ? " would move" : one ? " moves" : " move")
          + " to " + to + " when " + (one ? "its" : "their") + " running attempt ends"
          + mayFault(f, to, one));
    }
    for (Map.Entry<String, Integer> e : f.faulted().entrySet()) {
      parts.add(tasks(e.getValue()) + (dry ? " would go" : " went") + " to fault (state `"
          + e.getKey() + "` is not in " + to + ")");
    }
    if (f.aborted() > 0) {
      parts.add(tasks(f.aborted()) + (dry ? " would be aborted" : " aborted"));
    }
    return parts;
  }

  /**
   * Of the tasks moving after their attempt, those whose outcome may leave them in a state the
   * new version lacks, where they go to fault: the plan says so, so no one is surprised.
   */
  private static String mayFault(UpgradeReport.FromVersion f, String to, boolean one) {
    if (f.mayFault().isEmpty()) {
      return "";
    }
    int n = f.mayFault().values().stream().mapToInt(Integer::intValue).sum();
    List<String> states = new ArrayList<>();
    f.mayFault().forEach((state, count) -> states.add("`" + state + "`"
        + (f.mayFault().size() > 1 ? " (" + count + ")" : "")));
    return " (" + (one ? "it" : n == f.movingAfterAttempt() ? "all of them" : n + " of them")
        + " may then go to fault: the outcome may leave " + (one ? "it" : "them") + " in "
        + String.join(", ", states) + ", which " + to + " lacks)";
  }

  private static String tasks(int n) {
    return n + (n == 1 ? " task" : " tasks");
  }

  static void json(JsonGenerator g, UpgradeReport r) throws IOException {
    g.writeStartObject();
    g.writeStringField("machine", r.machine());
    g.writeNumberField("number", r.number());
    g.writeStringField("id", r.version());
    // A dry run registers nothing; new_version says whether it would have.
    g.writeBooleanField("new_version", r.registered());
    g.writeBooleanField("registered", r.registered() && !r.dryRun());
    g.writeStringField("strategy", r.strategy());
    g.writeBooleanField("dry_run", r.dryRun());
    g.writeArrayFieldStart("older");
    for (UpgradeReport.FromVersion f : r.older()) {
      g.writeStartObject();
      g.writeNumberField("number", f.number());
      g.writeStringField("id", f.version());
      g.writeNumberField("continue", f.continued());
      g.writeNumberField("move", f.moved());
      g.writeNumberField("move_after_attempt", f.movingAfterAttempt());
      g.writeObjectFieldStart("move_after_attempt_may_fault");
      for (Map.Entry<String, Integer> e : f.mayFault().entrySet()) {
        g.writeNumberField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeObjectFieldStart("fault");
      for (Map.Entry<String, Integer> e : f.faulted().entrySet()) {
        g.writeNumberField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeNumberField("abort", f.aborted());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }
}
