package dev.fsm.cli.verb.store;

import dev.fsm.store.embedded.check.StoreCheckReport;
import dev.fsm.store.embedded.check.StoreCheckReport.Difference;
import dev.fsm.store.embedded.recovery.OpenReport;
import dev.fsm.store.embedded.repair.RepairReport;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The store verbs' reports as JSON documents with stable snake_case keys. */
final class Reports {

  private Reports() {}

  static Map<String, Object> open(OpenReport r) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("rebuilt", r.rebuilt());
    doc.put("why", r.why());
    doc.put("records_replayed", r.recordsReplayed());
    doc.put("from_snapshot", r.fromSnapshot());
    doc.put("millis", r.millis());
    doc.put("journal_recovery", r.journalRecovery().orElse(null));
    return doc;
  }

  static Map<String, Object> check(StoreCheckReport r, OpenReport opened) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("store", r.folder().toString());
    doc.put("matches", r.matches());
    doc.put("tasks", r.tasks());
    doc.put("records_replayed", r.recordsReplayed());
    doc.put("collections_compared", r.collectionsCompared());
    doc.put("entries_compared", r.entriesCompared());
    doc.put("differences_found", r.differencesFound());
    List<Map<String, Object>> differences = r.differences().stream().map(Reports::difference)
        .toList();
    doc.put("differences", differences);
    doc.put("journal_problem", r.journalProblem().orElse(null));
    doc.put("millis", r.millis());
    doc.put("open", open(opened));
    return doc;
  }

  static Map<String, Object> repair(RepairReport r) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("store", r.folder().toString());
    doc.put("sound", r.sound());
    doc.put("nothing_lost", r.nothingLost());
    doc.put("resumed", r.resumed().isEmpty() ? null : r.resumed());
    doc.put("damage", r.damage().stream().map(d -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("file", d.file().toString());
      m.put("offset", d.offset());
      m.put("length", d.length());
      m.put("reason", d.reason());
      m.put("read_as", d.readAs().orElse(null));
      return m;
    }).toList());
    doc.put("missing_records", ranges(r.missingRecords()));
    doc.put("lost_records", ranges(r.lostRecords()));
    doc.put("basis", r.basis());
    // A sound store is left unread past its records, so there is no count to give.
    doc.put("tasks_kept", r.sound() || !r.resumed().isEmpty() ? null : r.tasksKept());
    doc.put("last_record", r.lastRecord());
    doc.put("from_clean_index", r.fromCleanIndex());
    doc.put("lost_tasks", r.lostTasks().stream().map(t -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", t.id());
      m.put("wholly", t.wholly());
      m.put("creation_lost", t.creationLost());
      m.put("lost_entries", t.lostEntries());
      m.put("entries", t.entries());
      return m;
    }).toList());
    doc.put("lost_versions", r.lostVersions());
    doc.put("damaged_folder", r.damagedFolder().map(Path::toString).orElse(null));
    return doc;
  }

  private static List<Map<String, Object>> ranges(List<RepairReport.Range> ranges) {
    return ranges.stream().map(x -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("from", x.from());
      m.put("to", x.to());
      return m;
    }).toList();
  }

  private static Map<String, Object> difference(Difference d) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("collection", d.collection());
    doc.put("key", d.key());
    doc.put("kind", d.kind().name().toLowerCase(Locale.ROOT));
    doc.put("detail", d.detail());
    return doc;
  }
}
