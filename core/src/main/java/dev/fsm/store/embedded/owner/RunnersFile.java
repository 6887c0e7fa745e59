package dev.fsm.store.embedded.owner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fsm.files.DiskFailure;
import dev.fsm.files.StoreFiles;
import dev.fsm.store.RunnerRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code runners.json} in the store folder: the records of the runners that owned the store in
 * the last hour, rewritten atomically on every heartbeat. Not in the journal: they are no task's
 * data, one process owns the store at a time, and a lost or damaged file only forgets who ran.
 * So an unreadable file reads as empty and is replaced at the next heartbeat.
 */
public final class RunnersFile {

  public static final String FILE = "runners.json";

  /**
   * Records kept at most, the newest seen: a runner crashing and restarted every second for an
   * hour must not make every heartbeat rewrite megabytes.
   */
  static final int MAX_RECORDS = 500;

  /**
   * Made at the file's first read or write, not when a store opens: its class initialisation
   * (locale data among it) was about a tenth of a one-shot `fsm start`, which never reads it.
   */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private final Path file;
  private Map<String, RunnerRecord> records;

  public RunnersFile(Path folder) {
    this.file = folder.resolve(FILE);
  }

  /**
   * Replaces the runner's record and writes the file, dropping records seen an hour before the
   * newest, and the oldest beyond {@link #MAX_RECORDS}.
   */
  public synchronized void seen(RunnerRecord runner) {
    Map<String, RunnerRecord> all = records();
    all.put(runner.id(), runner);
    Instant newest = all.values().stream().map(RunnerRecord::seen).max(Instant::compareTo)
        .orElseThrow();
    all.values().removeIf(r -> r.seen().isBefore(newest.minus(RunnerRecord.KEPT)));
    if (all.size() > MAX_RECORDS) {
      all.values().stream().sorted(Comparator.comparing(RunnerRecord::seen).reversed())
          .skip(MAX_RECORDS).map(RunnerRecord::id).toList().forEach(all::remove);
    }
    List<RunnerRecord> sorted = all.values().stream().sorted(RunnerRecord.ORDER).toList();
    try {
      StoreFiles.writeAtomically(file, Json.MAPPER.writeValueAsBytes(toJson(sorted)));
    } catch (IOException e) {
      throw DiskFailure.of(file, "cannot write the runners' records " + file, e);
    }
  }

  /** The records seen at or after {@code since}, in {@link RunnerRecord#ORDER}. */
  public synchronized List<RunnerRecord> seenSince(Instant since) {
    return records().values().stream().filter(r -> !r.seen().isBefore(since))
        .sorted(RunnerRecord.ORDER).toList();
  }

  private Map<String, RunnerRecord> records() {
    if (records == null) {
      records = new HashMap<>();
      for (RunnerRecord r : read(file)) {
        records.put(r.id(), r);
      }
    }
    return records;
  }

  private static List<RunnerRecord> read(Path file) {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return List.of();
    }
    List<RunnerRecord> found = new ArrayList<>();
    try {
      for (JsonNode n : Json.MAPPER.readTree(Files.readAllBytes(file))) {
        List<String> machines = new ArrayList<>();
        n.path("machines").forEach(m -> machines.add(m.asText()));
        found.add(new RunnerRecord(n.get("id").asText(), n.get("host").asText(),
            n.get("pid").asLong(), n.get("workers").asInt(), machines,
            Instant.parse(n.get("started").asText()), Instant.parse(n.get("seen").asText()),
            n.path("held").asInt(), n.path("rate").asDouble(), n.path("stopped").asBoolean()));
      }
      return found;
    } catch (IOException | RuntimeException e) {
      // Advisory data: a damaged file forgets who ran, it never keeps the store from opening.
      return List.of();
    }
  }

  private static ArrayNode toJson(List<RunnerRecord> runners) {
    ArrayNode array = Json.MAPPER.createArrayNode();
    for (RunnerRecord r : runners) {
      ObjectNode n = array.addObject();
      n.put("id", r.id());
      n.put("host", r.host());
      n.put("pid", r.pid());
      n.put("workers", r.workers());
      r.machines().forEach(n.putArray("machines")::add);
      n.put("started", r.started().toString());
      n.put("seen", r.seen().toString());
      n.put("held", r.held());
      n.put("rate", r.rate());
      n.put("stopped", r.stopped());
    }
    return array;
  }
}
