package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fsm store check} and {@code fsm store rebuild} against the real jar. */
class StoreIT {

  @TempDir Path dir;

  @Test
  void aHealthyStoreMatchesItsJournal() throws Exception {
    finish(fixture("fill", "s", "40"));
    FsmJar.Result r = FsmJar.run(dir, "store", "check", "--store", "s");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.outLines()).hasSize(2);
    assertThat(r.out()).matches("(?s)store s: 40 tasks, \\d+ journal records, \\d+ entries in 7"
        + " collections compared in \\d+ ms\nindex matches the journal\n");
    assertThat(r.err()).startsWith("index: used as left at a clean close at journal record");
    assertThat(dir.resolve("s/index.check.db")).doesNotExist();
  }

  @Test
  void aStoreWhoseWriterWasKilledChecksCleanAfterTheOpenRebuildsIt() throws Exception {
    Process writer = fixture("write", "s");
    try (BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(),
        StandardCharsets.UTF_8))) {
      for (int i = 0; i < 30; i++) {
        assertThat(out.readLine()).isEqualTo("ack");
      }
      writer.toHandle().destroyForcibly();
      assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    FsmJar.Result r = FsmJar.run(dir, "--store", "s", "store", "check");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).contains("index: rebuilt from the journal because the store was not"
        + " closed cleanly");
    assertThat(r.out()).contains("index matches the journal");
    assertThat(FsmJar.run(dir, "--store", "s", "store", "check").err())
        .as("closed cleanly by the check").startsWith("index: used as left at a clean close");
  }

  @Test
  void aTamperedIndexFailsTheCheckUntilRebuilt() throws Exception {
    finish(fixture("fill", "s", "40"));
    finish(fixture("tamper", "s", "t-007"));
    FsmJar.Result r = FsmJar.run(dir, "store", "check", "--store", "s");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).contains("index differs from the journal: 1 difference\n"
        + "  tasks t-007: different value (state: index forged, journal ship)\n");
    assertThat(r.err()).endsWith("fsm: the index of store s does not match its journal; run"
        + " `fsm store rebuild` to build it again from the journal\n");

    FsmJar.Result rebuilt = FsmJar.run(dir, "store", "rebuild", "--store", "s");
    assertThat(rebuilt.exit()).as(rebuilt.err()).isZero();
    assertThat(rebuilt.out()).matches("index: rebuilt from the journal because a rebuild was"
        + " asked for: \\d+ records replayed in \\d+ ms\n");
    assertThat(rebuilt.err()).as("no progress line when stderr is not a terminal").isEmpty();
    assertThat(FsmJar.run(dir, "store", "check", "--store", "s").exit()).isZero();
  }

  @Test
  void jsonOutputIsOneDocumentWithStableKeys() throws Exception {
    finish(fixture("fill", "s", "10"));
    finish(fixture("tamper", "s", "t-003"));
    FsmJar.Result r = FsmJar.run(dir, "store", "check", "--store", "s", "--output", "json");
    assertThat(r.exit()).isEqualTo(1);
    JsonNode doc = new ObjectMapper().readTree(r.out());
    assertThat(doc.get("matches").asBoolean()).isFalse();
    assertThat(doc.get("tasks").asLong()).isEqualTo(10);
    assertThat(doc.get("differences_found").asLong()).isEqualTo(1);
    JsonNode d = doc.get("differences").get(0);
    assertThat(d.get("collection").asText()).isEqualTo("tasks");
    assertThat(d.get("key").asText()).isEqualTo("t-003");
    assertThat(d.get("kind").asText()).isEqualTo("different_value");
    assertThat(doc.get("open").get("rebuilt").asBoolean()).isFalse();
    assertThat(doc.get("journal_problem").isNull()).isTrue();

    FsmJar.Result rebuilt = FsmJar.run(dir, "store", "rebuild", "--store", "s", "--output",
        "json");
    assertThat(rebuilt.exit()).isZero();
    JsonNode report = new ObjectMapper().readTree(rebuilt.out());
    assertThat(report.get("rebuilt").asBoolean()).isTrue();
    assertThat(report.get("records_replayed").asLong()).isPositive();
    assertThat(report.get("why").asText()).isEqualTo("a rebuild was asked for");
    JsonNode check = new ObjectMapper().readTree(
        FsmJar.run(dir, "store", "check", "--store", "s", "--output", "json").out());
    assertThat(check.get("matches").asBoolean()).isTrue();
  }

  @Test
  void aFolderWithoutAStoreIsAnErrorAndStaysAsItWas() throws IOException {
    FsmJar.Result missing = FsmJar.run(dir, "store", "check", "--store", "nope");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).isEqualTo("fsm: no store folder nope; name an existing store with"
        + " --store PATH or $FSM_STORE\n");
    assertThat(dir.resolve("nope")).doesNotExist();
    assertThat(FsmJar.run(dir, "store", "rebuild").exit()).as("default .fsm").isEqualTo(1);
    assertThat(dir.resolve(".fsm")).doesNotExist();

    Files.createDirectory(dir.resolve("empty"));
    FsmJar.Result empty = FsmJar.run(dir, "store", "rebuild", "--store", "empty");
    assertThat(empty.exit()).isEqualTo(1);
    assertThat(empty.err()).contains("folder empty holds no fsm store (it has no journal/)");
    try (var files = Files.list(dir.resolve("empty"))) {
      assertThat(files).isEmpty();
    }
    FsmJar.Result pg = FsmJar.run(dir, "store", "rebuild", "--store", "postgresql://db/fsm");
    assertThat(pg.exit()).isEqualTo(1);
    assertThat(pg.err()).contains("`fsm store rebuild` is for embedded store folders");
  }

  @Test
  void aStoreInUseIsWaitedForNamingItsOwner() throws Exception {
    finish(fixture("fill", "s", "5"));
    try (Holder holder = Holder.start(dir.resolve("s"))) {
      FsmProcess check = FsmProcess.start(dir, "store", "check", "--store", "s");
      try (check) {
        Await.until("check to say whom it waits for; stderr: " + check.err(),
            Duration.ofSeconds(60), () -> check.err().contains("waiting"));
        assertThat(check.err()).isEqualTo("fsm: waiting for process " + holder.pid()
            + " (fsm) to release store s\n");
        holder.release();
        assertThat(check.awaitExit(Duration.ofSeconds(60))).as(check.err()).isZero();
      }
    }
  }

  @Test
  void badUsageExitsTwo() {
    assertThat(FsmJar.run(dir, "store").exit()).isEqualTo(2);
    FsmJar.Result r = FsmJar.run(dir, "store", "check", "--bogus");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--bogus").contains("fsm store check --help");
    assertThat(FsmJar.run(dir, "store", "chek").err()).contains("check");
  }

  private static void finish(Process p) throws InterruptedException {
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("store fixture").isZero();
  }

  private Process fixture(String... args) throws IOException {
    List<String> command = new java.util.ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), StoreFixture.class.getName()));
    for (int i = 0; i < args.length; i++) {
      command.add(i == 1 ? dir.resolve(args[i]).toString() : args[i]);
    }
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }
}
