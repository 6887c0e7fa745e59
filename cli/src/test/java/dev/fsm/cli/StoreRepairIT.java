package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, hole 2 on the real jar: one flipped byte in the active journal segment makes every
 * verb refuse the store, naming the file and offset, and {@code fsm store repair} keeps every
 * record it can prove and names exactly what it lost.
 */
class StoreRepairIT {

  private static final String SEGMENT = "s/journal/journal-00000000000000000001.log";

  @TempDir Path dir;

  private StoreCommands fsm;

  /**
   * Record 1 registers machine approval, record 2 creates a01 to a30, records 3 to 5 approve
   * a01, reject a02 and approve a03; then a clean close.
   */
  /** A folder where {@link #thirtyTasksAndThreeSignals} made the store once for the class. */
  private static Path made;

  @BeforeEach
  void thirtyTasksAndThreeSignals() throws IOException {
    fsm = new StoreCommands(dir, "s");
    synchronized (StoreRepairIT.class) {
      if (made == null) {
        Path folder = Files.createTempDirectory("store-repair-it-");
        machineAndTasks(folder);
        new StoreCommands(folder, "s").jsonEach(
            List.of("start", "approval", "--from", "tasks.jsonl"),
            List.of("signal", "a01", "approve"), List.of("signal", "a02", "reject"),
            List.of("signal", "a03", "approve"));
        made = folder;
      }
    }
    machineAndTasks(dir);
    Trees.copy(made.resolve("s"), dir.resolve("s"));
  }

  @AfterAll
  static void dropMadeStore() throws IOException {
    if (made != null) {
      Trees.delete(made);
      made = null;
    }
  }

  private static void machineAndTasks(Path folder) throws IOException {
    Files.createDirectories(folder.resolve("machines"));
    Files.writeString(folder.resolve("machines/approval.yaml"), """
        machine: approval
        states:
          review:
            on: {approve: done, reject: rejected}
          done: {final: completed}
          rejected: {final: failed}
        """);
    Files.write(folder.resolve("tasks.jsonl"), IntStream.rangeClosed(1, 30)
        .mapToObj(i -> String.format("{\"id\":\"a%02d\"}", i)).toList());
  }

  @Test
  void aFlippedByteIsRefusedNamingFileAndOffsetThenRepairKeepsAllThirtyTasks()
      throws IOException {
    Path segment = dir.resolve(SEGMENT);
    Map<Long, Long> frames = frames(segment);
    flip(segment, frames.get(2L) + 16 + 40);
    Map<String, String> files = contents(dir.resolve("s"));

    FsmJar.Result ls = fsm.run("ls");
    assertThat(ls.exit()).isEqualTo(1);
    assertThat(ls.out()).isEmpty();
    assertThat(ls.err()).isEqualTo("fsm: journal segment " + SEGMENT + " is damaged at byte "
        + frames.get(2L) + " (CRC mismatch), and a sound later record, 3, follows at byte "
        + frames.get(3L) + ": this is not a torn tail, so fsm opened nothing and changed"
        + " nothing. Run `fsm store repair` to keep every record that can be proven and report"
        + " exactly what is lost, or restore the store folder from a backup.\n");
    assertThat(contents(dir.resolve("s"))).as("the refused open changed no file")
        .isEqualTo(files);
    assertThat(fsm.run("store", "rebuild").err()).as("rebuild refuses it too")
        .contains("is damaged at byte " + frames.get(2L)).contains("fsm store repair");

    FsmJar.Result repair = fsm.ok("store", "repair");
    String all = IntStream.rangeClosed(1, 30).mapToObj(i -> String.format("a%02d", i))
        .collect(Collectors.joining(", "));
    List<String> lines = repair.outLines();
    assertThat(lines.get(0)).isEqualTo("store s: 1 damaged stretch found, journal records"
        + " missing");
    assertThat(lines.get(1)).isEqualTo("  damaged: " + SEGMENT + " at byte " + frames.get(2L)
        + ", " + (frames.get(3L) - frames.get(2L)) + " bytes (CRC mismatch); its bytes read as"
        + " the creation of tasks " + all);
    assertThat(lines.subList(2, 6)).containsExactly(
        "  missing: journal record 2 (the clean index holds what it did)",
        "kept: 30 tasks up to journal record 5, built on the clean index (closed at journal"
            + " record 5)",
        "recovered from the clean index: " + all,
        "could not recover: nothing");
    assertThat(lines.get(6)).matches("damaged originals kept in s/damaged-\\d{8}T\\d{6}Z");
    assertThat(lines).hasSize(7);
    assertThat(repair.err()).isEmpty();
    Path aside = dir.resolve(lines.get(6).substring("damaged originals kept in ".length()));
    assertThat(aside.resolve("journal/journal-00000000000000000001.log"))
        .hasBinaryContent(Base64.getDecoder().decode(files.get(SEGMENT)));

    assertThat(fsm.ok("ls").outLines()).hasSize(31);
    assertThat(fsm.ok("ls", "--status", "completed").outLines()).hasSize(3);
    assertThat(fsm.ok("history", "a02").out()).contains("review  reject  rejected");
    assertThat(fsm.ok("store", "repair").out()).isEqualTo("store s: no damage found; nothing"
        + " changed\n");
    assertThat(fsm.ok("store", "check").out()).contains("index matches the journal");
  }

  @Test
  void withoutACleanIndexTheReportNamesExactlyTheLostTransition() throws IOException {
    // As a crash after the last acknowledged write leaves it: no clean marker.
    Files.delete(dir.resolve("s/index.clean"));
    Path segment = dir.resolve(SEGMENT);
    Map<Long, Long> frames = frames(segment);
    flip(segment, frames.get(4L) + 5);

    FsmJar.Result ls = fsm.run("ls");
    assertThat(ls.exit()).isEqualTo(1);
    assertThat(ls.err()).startsWith("fsm: journal segment " + SEGMENT + " is damaged at byte "
        + frames.get(4L) + " (CRC mismatch), and a sound later record, 5,");

    JsonNode report = fsm.json("store", "repair");
    assertThat(report.get("sound").asBoolean()).isFalse();
    assertThat(report.get("nothing_lost").asBoolean()).isFalse();
    assertThat(report.get("damage")).hasSize(1);
    assertThat(report.get("damage").get(0).get("offset").asLong()).isEqualTo(frames.get(4L));
    assertThat(report.get("damage").get(0).get("read_as").asText())
        .isEqualTo("history entry 1 of task a02 (review -> rejected)");
    assertThat(report.get("lost_records").toString()).isEqualTo("[{\"from\":4,\"to\":4}]");
    assertThat(report.get("from_clean_index")).isEmpty();
    assertThat(report.get("lost_tasks").toString()).isEqualTo("[{\"id\":\"a02\",\"wholly\":false,"
        + "\"creation_lost\":false,\"lost_entries\":[1],\"entries\":1}]");
    assertThat(report.get("basis").asText()).isEqualTo("the journal");

    List<String> ls2 = fsm.ok("ls").outLines();
    assertThat(ls2).hasSize(31);
    assertThat(fsm.ok("ls", "--status", "completed").outLines()).hasSize(3);
    assertThat(fsm.ok("show", "a02").out()).contains("review");
    JsonNode again = fsm.json("store", "repair");
    assertThat(again.get("sound").asBoolean()).isTrue();
  }

  @Test
  void aJournalCutShortAfterARunnerWasKilledIsRefusedAndRepairNamesTheLostRecord()
      throws IOException {
    Path segment = dir.resolve(SEGMENT);
    try (FsmProcess runner = FsmProcess.start(dir, "run", "--store", "s")) {
      // An open takes the clean close's marker away; nothing but the runner opens it now.
      Await.until("the runner to open the store", Duration.ofSeconds(20),
          () -> !Files.exists(dir.resolve("s/index.clean")));
      fsm.ok("signal", "a04", "approve");
      // The journal notes how far it got once a second; kill -9 after that note.
      long written = Collections.max(frames(segment).keySet());
      Await.until("the journal's note of record " + written, Duration.ofSeconds(20),
          () -> noted(dir.resolve("s/journal/reached")) >= written);
      runner.kill();
      runner.awaitExit(Duration.ofSeconds(10));
    }
    assertThat(dir.resolve("s/index.clean")).doesNotExist();
    Map<Long, Long> frames = frames(segment);
    long last = Collections.max(frames.keySet());
    try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
      f.setLength(frames.get(last));
    }

    FsmJar.Result ls = fsm.run("ls");
    assertThat(ls.exit()).isEqualTo(1);
    assertThat(ls.err()).startsWith("fsm: journal segment " + SEGMENT + " ends at byte "
        + frames.get(last) + " after record " + (last - 1) + ", but the journal had made record "
        + last + " durable").contains("fsm store repair");

    FsmJar.Result repair = fsm.ok("store", "repair");
    assertThat(repair.outLines()).contains("  lost: journal record " + last);
    assertThat(repair.err()).contains("it lost what the report above lists");
    assertThat(fsm.ok("ls").outLines()).as("the store opens again").hasSize(31);
  }

  /** The record the journal's note names, or -1 while it has none. */
  private static long noted(Path note) {
    try {
      byte[] b = Files.readAllBytes(note);
      return b.length < 16 ? -1 : ByteBuffer.wrap(b).getLong(4);
    } catch (IOException e) {
      return -1;
    }
  }

  @Test
  void theTextReportSaysWhatWasLostOnStderrToo() throws IOException {
    Files.delete(dir.resolve("s/index.clean"));
    Path segment = dir.resolve(SEGMENT);
    flip(segment, frames(segment).get(4L) + 5);
    FsmJar.Result r = fsm.ok("store", "repair");
    assertThat(r.outLines()).contains("  lost: journal record 4", "could not recover:",
        "  task a02: history entry 1 (of 1)");
    assertThat(r.err()).startsWith("fsm: store s is repaired and opens again, but it lost what"
        + " the report above lists; the damaged originals are in s/damaged-");
  }

  @Test
  void repairRefusesWhatIsNotAnEmbeddedStoreAndCreatesNothing() throws IOException {
    FsmJar.Result missing = FsmJar.run(dir, "store", "repair", "--store", "nope");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).isEqualTo("fsm: no store folder nope; name an existing store with"
        + " --store PATH or $FSM_STORE\n");
    assertThat(dir.resolve("nope")).doesNotExist();
    Files.createDirectory(dir.resolve("empty"));
    FsmJar.Result empty = FsmJar.run(dir, "store", "repair", "--store", "empty");
    assertThat(empty.exit()).isEqualTo(1);
    assertThat(empty.err()).contains("folder empty holds no fsm store (it has no journal/)");
    try (Stream<Path> files = Files.list(dir.resolve("empty"))) {
      assertThat(files).isEmpty();
    }
    FsmJar.Result pg = FsmJar.run(dir, "store", "repair", "--store", "postgresql://db/fsm");
    assertThat(pg.exit()).isEqualTo(1);
    assertThat(pg.err()).contains("`fsm store repair` is for embedded store folders");
  }

  @Test
  void aStoreARunnerServesIsRefusedNamingTheRunner() {
    try (FsmProcess runner = FsmProcess.start(dir, "--store", "s", "run")) {
      runner.awaitServing();
      for (String verb : List.of("check", "rebuild", "repair")) {
        FsmJar.Result r = fsm.run("store", verb);
        assertThat(r.exit()).as(verb).isEqualTo(1);
        assertThat(r.err()).isEqualTo("fsm: store s is already served by runner pid "
            + runner.pid() + "; `fsm store " + verb + "` needs the store to itself: stop the"
            + " runner first, then run it again\n");
      }
      assertThat(runner.alive()).isTrue();
    }
  }

  @Test
  void aStoreInUseIsRefusedAndLeftAsItWas() throws Exception {
    Map<String, String> files = contents(dir.resolve("s"));
    Process holder = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), StoreFixture.class.getName(), "hold",
        dir.resolve("s").toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(),
        StandardCharsets.UTF_8))) {
      assertThat(out.readLine()).startsWith("held");
      FsmJar.Result r = fsm.run("store", "repair");
      assertThat(r.exit()).isEqualTo(1);
      assertThat(r.err()).isEqualTo("fsm: store s is in use by process " + holder.pid()
          + " (fsm); wait for it to finish, or stop it, then try again\n");
    } finally {
      holder.getOutputStream().close();
      assertThat(holder.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
    try (Stream<Path> entries = Files.list(dir.resolve("s"))) {
      assertThat(entries.map(p -> p.getFileName().toString())).doesNotContain("repair.tmp")
          .noneMatch(n -> n.startsWith("damaged-"));
    }
    assertThat(contents(dir.resolve("s")).get(SEGMENT)).isEqualTo(files.get(SEGMENT));
  }

  /** Each record's frame offset in a sound segment, by sequence. */
  private static Map<Long, Long> frames(Path segment) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(segment));
    Map<Long, Long> offsets = new TreeMap<>();
    for (int at = 13; at < b.limit(); at += 16 + b.getInt(at)) {
      offsets.put(b.getLong(at + 8), (long) at);
    }
    return offsets;
  }

  private static void flip(Path file, long offset) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ 0x01);
    }
  }

  /**
   * Every file of the store but the owner lock and the line of waiting commands (both rewritten
   * by each open) by path, as base64.
   */
  private Map<String, String> contents(Path store) throws IOException {
    Map<String, String> all = new TreeMap<>();
    List<Path> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(store)) {
      walk.filter(Files::isRegularFile).forEach(files::add);
    }
    for (Path f : files) {
      String name = f.getFileName().toString();
      if (!name.equals("owner.lock") && !name.equals("owner.queue")) {
        all.put(dir.relativize(f).toString(),
            Base64.getEncoder().encodeToString(Files.readAllBytes(f)));
      }
    }
    return all;
  }
}
