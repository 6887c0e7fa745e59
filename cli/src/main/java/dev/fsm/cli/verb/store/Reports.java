package dev.fsm.cli.verb.store;

import dev.fsm.store.embedded.OpenReport;
import dev.fsm.store.embedded.StoreCheckReport;
import dev.fsm.store.embedded.StoreCheckReport.Difference;
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

  private static Map<String, Object> difference(Difference d) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("collection", d.collection());
    doc.put("key", d.key());
    doc.put("kind", d.kind().name().toLowerCase(Locale.ROOT));
    doc.put("detail", d.detail());
    return doc;
  }
}
