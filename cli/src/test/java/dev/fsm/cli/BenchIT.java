package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fsm bench --store-only} run as a user would, with settings small enough for a test. It
 * checks what the report holds, never how fast anything was, so it runs beside other classes.
 */
class BenchIT {

  @TempDir Path dir;

  @Test
  void storeOnlyReportsEveryMeasureAsJsonAndLeavesNoFolderBehind() throws IOException {
    FsmJar.Result r = FsmJar.run(dir, "bench", "--store-only", "--tasks", "2000", "--seconds",
        "0.5", "--writers", "1,4", "--output", "json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode doc = new ObjectMapper().readTree(r.out());
    assertThat(fieldNames(doc)).containsExactly("tasks", "context_bytes", "seconds_per_measure",
        "rounds", "writers", "claim_batch", "create_batch", "record_bytes", "cores", "file_system",
        "bare_log", "store", "store_batched", "half_load", "at_scale", "targets");
    assertThat(doc.get("tasks").asInt()).isEqualTo(2000);
    assertThat(doc.get("record_bytes").asInt()).isGreaterThan(200);
    for (String part : List.of("bare_log", "store", "store_batched")) {
      assertThat(doc.get(part)).hasSize(2);
      assertThat(doc.get(part).get(0).get("writers").asInt()).isEqualTo(1);
      assertThat(doc.get(part).get(1).get("writers").asInt()).isEqualTo(4);
    }
    for (JsonNode b : doc.get("bare_log")) {
      assertThat(fieldNames(b)).containsExactly("writers", "records", "seconds",
          "records_per_second", "rounds_per_second");
      assertThat(b.get("records").asLong()).isPositive();
      assertThat(b.get("rounds_per_second")).hasSize(1);
    }
    for (JsonNode s : doc.get("store")) {
      assertThat(fieldNames(s)).containsExactly("writers", "transitions", "seconds",
          "transitions_per_second", "ratio_to_bare_log", "rounds_per_second", "rounds_ratio",
          "ratio_lowest", "ratio_highest");
      assertThat(s.get("rounds_ratio")).hasSize(1);
      assertThat(s.get("ratio_lowest").asDouble()).isEqualTo(s.get("ratio_to_bare_log")
          .asDouble()).isEqualTo(s.get("ratio_highest").asDouble());
    }
    for (JsonNode s : List.of(doc.get("store").get(0), doc.get("store").get(1),
        doc.get("store_batched").get(0), doc.get("store_batched").get(1))) {
      assertThat(s.get("transitions").asLong()).isPositive();
      assertThat(s.get("ratio_to_bare_log").asDouble()).isPositive();
    }
    JsonNode half = doc.get("half_load");
    assertThat(fieldNames(half)).containsExactly("writers", "basis_writers",
        "offered_per_second", "achieved_per_second", "samples", "p50_ms", "p99_ms", "max_ms",
        "forces_per_second");
    assertThat(half.get("forces_per_second").asDouble()).isPositive();
    assertThat(half.get("samples").asInt()).isPositive();
    assertThat(half.get("p50_ms").asDouble()).isPositive()
        .isLessThanOrEqualTo(half.get("p99_ms").asDouble());
    assertThat(half.get("p99_ms").asDouble()).isLessThanOrEqualTo(half.get("max_ms").asDouble());
    JsonNode scale = doc.get("at_scale");
    assertThat(fieldNames(scale)).containsExactly("tasks", "create_seconds",
        "create_per_second", "bytes_total", "journal_bytes", "index_bytes", "other_bytes",
        "bytes_per_task", "heap_used_bytes", "max_heap_bytes", "reopen_ms", "reopen_rebuilt",
        "transitions_before_rebuild", "rebuild_ms", "rebuild_records", "rebuild_records_per_second",
        "rebuild_tasks_per_second");
    assertThat(scale.get("journal_bytes").asLong()).isGreaterThan(2000L * 200);
    assertThat(scale.get("index_bytes").asLong()).isPositive();
    assertThat(scale.get("bytes_total").asLong()).isEqualTo(scale.get("journal_bytes").asLong()
        + scale.get("index_bytes").asLong() + scale.get("other_bytes").asLong());
    assertThat(scale.get("heap_used_bytes").asLong()).isPositive()
        .isLessThan(scale.get("max_heap_bytes").asLong());
    assertThat(scale.get("reopen_rebuilt").asBoolean()).isFalse();
    assertThat(scale.get("transitions_before_rebuild").asLong()).isEqualTo(500);
    // A snapshot record per task, then a journal record per transition.
    assertThat(scale.get("rebuild_records").asLong()).isEqualTo(2500);
    assertThat(doc.get("targets")).extracting(t -> t.get("measure").asText()).containsExactly(
        "store_1_writers", "store_4_writers", "store_batched_1_writers",
        "store_batched_4_writers", "half_load_p99", "bytes_per_task", "heap_used",
        "reopen", "rebuild");
    assertThat(r.err()).contains("bench: bare log, 4 writers...")
        .contains("bench: store, 1 writer...").doesNotContain("\r");
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void theTextTableHasAMeasureResultTargetAndVerdictPerRow() {
    FsmJar.Result r = FsmJar.run(dir, "bench", "--store-only", "--tasks", "500", "--seconds",
        "0.3", "--writers", "2", "--dir", "sub");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.outLines().get(1)).startsWith("measure").contains("result").contains("target")
        .endsWith("met");
    assertThat(r.out()).contains("store, 2 writers").contains("bytes on disk per task")
        .contains("rebuild after 125 more transitions and a crash");
    assertThat(dir.resolve("sub")).isEmptyDirectory();
  }

  @Test
  void roundsInterleaveTheBareLogAndTheStoreAndReportTheMedianAndSpread() throws IOException {
    FsmJar.Result r = FsmJar.run(dir, "bench", "--store-only", "--tasks", "500", "--seconds",
        "0.3", "--writers", "4", "--rounds", "3");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.outLines().get(0)).contains("0.3 s per throughput measure, bare log and store"
        + " one by one in turn 3 times after a round not counted,");
    assertThat(r.err()).contains("bench: warming up: bare log and store, 4 writers (not counted)"
        + "...");
    assertThat(r.out()).containsPattern("bare log, 4 writers +[0-9,]+ records/s \\(median of 3,"
        + " [0-9,]+-[0-9,]+\\)")
        .containsPattern("store, 4 writers +[0-9,]+ transitions/s \\(median of 3, [0-9,]+-"
            + "[0-9,]+\\); [0-9.]+× bare log \\(median of 3 rounds, [0-9.]+×-[0-9.]+×\\) +median"
            + " ≥ 0.8× bare log, each ≥ 0.7×, ≥ 10,000/s +(yes|no)");
    List<String> phases = r.err().lines().filter(l -> l.contains("round")).toList();
    List<String> expected = new ArrayList<>();
    for (int round = 1; round <= 3; round++) {
      expected.add("bench: bare log, 4 writers (round " + round + " of 3)...");
      expected.add("bench: store, 4 writers (round " + round + " of 3)...");
    }
    assertThat(phases).containsExactlyElementsOf(expected);
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void theRunnerBenchReportsThroughputLatencyAndSendTimesAsJson() throws IOException {
    FsmJar.Result r = FsmJar.run(dir, "bench", "--tasks", "300", "--workers", "1,2",
        "--states", "3", "--sends", "20", "--output", "json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode doc = new ObjectMapper().readTree(r.out());
    assertThat(fieldNames(doc)).containsExactly("runs", "half_load", "send_to_action", "targets");
    assertThat(doc.get("runs")).hasSize(2);
    for (JsonNode run : doc.get("runs")) {
      assertThat(run.get("transitions").asLong()).as("every task through every state")
          .isEqualTo(900);
      assertThat(run.get("transitions_per_second").asDouble()).isPositive();
      assertThat(run.get("due_to_recorded").get("samples").asInt()).isEqualTo(900);
    }
    assertThat(doc.get("half_load").get("due_to_recorded").get("samples").asInt()).isPositive();
    assertThat(doc.get("send_to_action").get("samples").asInt()).isEqualTo(20);
    assertThat(doc.get("targets")).hasSize(3);
    try (var left = Files.list(dir)) {
      assertThat(left.filter(p -> p.getFileName().toString().startsWith(".fsm-bench")))
          .as("temporary folders are deleted").isEmpty();
    }
  }

  @Test
  void runnerBenchValuesAreUsageErrorsNamingTheOption() {
    assertUsage("--workers", "--workers", "0");
    assertUsage("--states", "--states", "0");
    assertUsage("--sends", "--sends", "0");
    assertUsage("--tasks", "--tasks", "0");
  }

  @Test
  void badValuesAreUsageErrorsNamingTheOption() {
    assertUsage("--tasks", "--store-only", "--tasks", "0");
    assertUsage("--writers", "--store-only", "--writers", "x");
    assertUsage("--writers", "--store-only", "--writers", "1,0");
    assertUsage("--seconds", "--store-only", "--seconds", "-1");
    assertUsage("--context-bytes", "--store-only", "--context-bytes", "1");
    assertUsage("--rounds", "--store-only", "--rounds", "0");
    assertUsage("--rounds", "--rounds", "3");
  }

  private void assertUsage(String option, String... args) {
    String[] command = Stream.concat(Stream.of("bench"), Stream.of(args)).toArray(String[]::new);
    FsmJar.Result r = FsmJar.run(dir, command);
    assertThat(r.exit()).as(String.join(" ", command)).isEqualTo(2);
    assertThat(r.err()).contains(option).doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(r.out()).isEmpty();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
