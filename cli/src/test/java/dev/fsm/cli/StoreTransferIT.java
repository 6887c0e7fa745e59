package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.postgres.TestPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fsm store export} and {@code fsm store import} through the real jar: a store made with
 * real verbs (tasks in every status, three versions of a machine of which one is a rollback,
 * histories of commands, signals and runs) exported and imported into a new store folder prints
 * the same bytes for {@code ls}, {@code show}, {@code history} and {@code machines}, text and
 * JSON; taken ids, {@code --skip-existing}, a cut-short file, an existing FILE and standard
 * output. Verbs are batched through piped
 * shells so the test starts few JVMs.
 */
class StoreTransferIT {

  private static final String V1 = """
      machine: job
      initial: work
      states:
        work:
          run: builtin:noop
          on: {ok: approve}
        approve:
          on: {go: done}
        done: {final: completed}
      """;

  private static final String FLAKY = """
      machine: flaky
      initial: try
      states:
        try:
          run: builtin:fail carrier down ✗ "quoted"
          retry: {max_errors: 1, window: 1h, backoff: 1s}
          on: {ok: done}
        done: {final: completed}
      """;

  private static final List<String> IDS = List.of("a-1", "a-2", "b-1", "b-2", "c-1", "c-2",
      "c-3", "c-4", "f-1");

  private static final Pattern TIME = Pattern.compile("\"(\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z)\"");

  @TempDir Path dir;

  @Test
  void anImportedStorePrintsTheSameAsTheOneItWasExportedFrom() throws Exception {
    Files.createDirectories(dir.resolve("machines"));
    Files.createDirectories(dir.resolve("m2"));
    Files.writeString(dir.resolve("machines/job.yaml"), V1);
    Files.writeString(dir.resolve("machines/flaky.yaml"), FLAKY);
    Files.writeString(dir.resolve("m2/job.yaml"), V1.replace("approve:\n", "approve:\n"
        + "    description: v2\n"));
    Files.writeString(dir.resolve("ctx.json"), "{\"name\":\"Zoë ✓ \\\"Q\\\"\",\"n\":2.50,"
        + "\"nested\":{\"list\":[1,null,true,\"\\u2028\"]}}");
    shellOk("s1", """
        start job --id a-1 --context @ctx.json
        start job --id a-2
        start flaky --id f-1
        --machines m2 upgrade job
        --machines m2 start job --id b-1
        --machines m2 start job --id b-2
        upgrade job
        start job --id c-1
        start job --id c-2
        start job --id c-3
        """);
    ok("--store", "s1", "run", "--until-idle");
    shellOk("s1", """
        signal a-1 go --context '{"signed":"ann"}'
        send a-2 pause --reason "hold on"
        send b-1 kill --reason "wrong one"
        send c-1 sleep --until 2030-01-01T00:00:00Z
        send c-3 pause
        send c-3 run
        start job --id c-4
        """);

    FsmJar.Result export = ok("--store", "s1", "store", "export", "dump.jsonl");
    assertThat(export.err()).startsWith("fsm: exported 4 machine versions, 9 tasks, ")
        .contains(" to dump.jsonl in ");
    FsmJar.Result imported = ok("--store", "s2", "store", "import", "dump.jsonl");
    assertThat(imported.err()).startsWith("fsm: imported 4 machine versions, 9 tasks, ")
        .contains(" from dump.jsonl in ").contains(" tasks/s)");

    String views = views();
    FsmJar.Result before = shellOk("s1", views);
    FsmJar.Result after = shellOk("s2", views);
    assertThat(after.out()).isEqualTo(before.out());
    assertThat(before.out()).contains("killed", "paused", "sleeping", "waiting", "completed",
        "failed", "runnable", "Zoë ✓", "carrier down ✗", "hold on", "v3 (");

    // From the embedded store to PostgreSQL: how a user moves, with the same bytes printed.
    String pg = TestPostgres.server().freshUrl();
    FsmJar.Result intoPg = ok("--store", pg, "store", "import", "dump.jsonl");
    assertThat(intoPg.err()).startsWith("fsm: imported 4 machine versions, 9 tasks, ");
    assertThat(shellOk(pg, views).out()).as("PostgreSQL prints what the embedded store printed")
        .isEqualTo(before.out());
    List<String> dumped = Files.readAllLines(dir.resolve("dump.jsonl"));
    assertThat(ok("--store", pg, "store", "export").outLines().subList(1, dumped.size()))
        .as("PostgreSQL exports the lines it imported, but the header's time, to its microseconds")
        .isEqualTo(dumped.subList(1, dumped.size()).stream().map(StoreTransferIT::micros)
            .toList());

    // Again: every id is taken, so nothing is imported, then all are skipped.
    FsmJar.Result taken = FsmJar.run(dir, "--store", "s2", "store", "import", "dump.jsonl");
    assertThat(taken.exit()).isEqualTo(1);
    assertThat(taken.err()).isEqualTo("fsm: task `a-1` exists already in store s2; nothing was"
        + " imported. Import into a new store, or pass --skip-existing to import only the tasks"
        + " it does not have.\n");
    FsmJar.Result skipped = ok("--store", "s2", "store", "import", "dump.jsonl",
        "--skip-existing");
    assertThat(skipped.err()).startsWith("fsm: imported 0 machine versions, 0 tasks, 0 history"
        + " entries from dump.jsonl in ").endsWith("; 4 machine versions the store had already;"
        + " skipped 9 tasks whose id the store has\n");

    // An existing file is kept; with no FILE the export goes to standard output.
    FsmJar.Result again = FsmJar.run(dir, "--store", "s1", "store", "export", "dump.jsonl");
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err()).isEqualTo("fsm: dump.jsonl exists already; name another file, or"
        + " pass --force to replace it\n");
    FsmJar.Result stdout = ok("--store", "s2", "store", "export");
    List<String> lines = Files.readAllLines(dir.resolve("dump.jsonl"));
    assertThat(stdout.outLines().subList(1, lines.size()))
        .as("the imported store exports as the file it came from, but the header's time")
        .isEqualTo(lines.subList(1, lines.size()));
    assertThat(stdout.err()).startsWith("fsm: exported 4 machine versions, 9 tasks, ")
        .contains(" to standard output in ");
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.contains(".partial"));
    }

    // A file cut short: refused naming it, nothing imported, and no store left half filled.
    Files.write(dir.resolve("cut.jsonl"), lines.subList(0, lines.size() - 3));
    FsmJar.Result cut = FsmJar.run(dir, "--store", "s3", "--output", "json", "store", "import",
        "cut.jsonl");
    assertThat(cut.exit()).isEqualTo(1);
    assertThat(cut.err()).isEqualTo("fsm: cut.jsonl ends after line " + (lines.size() - 3)
        + " without its end line: the export was cut short (or is still being written); export"
        + " again; nothing was imported\n");
    assertThat(cut.out()).isEmpty();
    assertThat(dir.resolve("s3")).as("a bad file leaves no new store behind").doesNotExist();
  }

  @Test
  void aStoreARunnerServesIsExportedThroughItWhileItWorks() throws Exception {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/job.yaml"), V1);
    // More tasks than a page holds, so the export asks the runner for several.
    int tasks = 1_200;
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < tasks; i++) {
      lines.append(String.format("{\"id\":\"t-%04d\",\"context\":{\"n\":%d}}%n", i, i));
    }
    Files.writeString(dir.resolve("tasks.jsonl"), lines);
    ok("--store", "s1", "start", "job", "--from", "tasks.jsonl");

    try (FsmProcess runner = FsmProcess.start(dir, "--store", "s1", "run", "--workers", "4")) {
      runner.awaitServing();
      // While the runner moves tasks from work to approve: every task exported, one line each.
      FsmJar.Result during = ok("--store", "s1", "store", "export", "during.jsonl");
      assertThat(during.err()).startsWith("fsm: exported 1 machine version, 1,200 tasks, ")
          .endsWith(" through runner pid " + runner.pid() + ", which kept working: each task as"
              + " it was when read\n");
      assertThat(Files.readAllLines(dir.resolve("during.jsonl"))).hasSize(tasks + 3);
      assertThat(runner.alive()).isTrue();
      ok("--store", "s2", "store", "import", "during.jsonl");

      Await.until("every task waiting for approval", Duration.ofSeconds(60),
          () -> FsmJar.run(dir, "--store", "s1", "ls", "--status", "waiting", "-q",
                  "--limit", "5000")
              .outLines().size() == tasks);
      ok("--store", "s1", "store", "export", "idle.jsonl");
      ok("--store", "s3", "store", "import", "idle.jsonl");
      String views = "ls --limit 5000\nshow t-0000\nhistory t-0000\n"
          + "--output json show t-1199\n--output json history t-0600\n";
      assertThat(shellOk("s3", views).out()).as("an idle runner's store, exported through it")
          .isEqualTo(shellOk("s1", views).out());
    }
  }

  @Test
  void anImportIntoAStoreARunnerServesGoesThroughItAndTheRunnerRunsTheTasks() throws Exception {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/job.yaml"), V1);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 700; i++) {
      lines.append(String.format("{\"id\":\"t-%04d\"}%n", i));
    }
    Files.writeString(dir.resolve("tasks.jsonl"), lines);
    // Exported with every task still to run: the importing store's runner runs them.
    ok("--store", "s1", "start", "job", "--from", "tasks.jsonl");
    ok("--store", "s1", "store", "export", "todo.jsonl");
    ok("--store", "s2", "start", "job", "--id", "own-1");

    try (FsmProcess runner = FsmProcess.start(dir, "--store", "s2", "run", "--workers", "2")) {
      runner.awaitServing();
      FsmJar.Result imported = ok("--store", "s2", "store", "import", "todo.jsonl");
      assertThat(imported.err()).startsWith("fsm: imported 0 machine versions, 700 tasks, ")
          .endsWith(" through runner pid " + runner.pid() + "; 1 machine version the store had"
              + " already\n");
      Await.until("the imported tasks run to approval", Duration.ofSeconds(60),
          () -> FsmJar.run(dir, "--store", "s2", "ls", "--status", "waiting", "-q", "--limit",
              "5000").outLines().size() == 701);
      FsmJar.Result again = FsmJar.run(dir, "--store", "s2", "store", "import", "todo.jsonl");
      assertThat(again.exit()).isEqualTo(1);
      assertThat(again.err()).startsWith("fsm: task `t-0000` exists already in store s2;");
      assertThat(runner.alive()).isTrue();
    }
    assertThat(ok("--store", "s2", "store", "check").out()).contains("index matches the journal");
  }

  /** An export line with its times cut to microseconds, as PostgreSQL keeps them. */
  private static String micros(String line) {
    return TIME.matcher(line).replaceAll(m -> "\"" + Instant.parse(m.group(1))
        .truncatedTo(ChronoUnit.MICROS) + "\"");
  }

  /** Every view of every task, text and JSON, as shell lines. */
  private static String views() {
    List<String> lines = new ArrayList<>(List.of("ls", "--output json ls", "machines",
        "--output json machines", "ls --status killed", "ls --status waiting"));
    for (String id : IDS) {
      lines.add("show " + id);
      lines.add("--output json show " + id);
      lines.add("history " + id);
      lines.add("--output json history " + id);
    }
    return String.join("\n", lines) + "\n";
  }

  private FsmJar.Result ok(String... args) {
    FsmJar.Result r = FsmJar.run(dir, args);
    assertThat(r.exit()).as("fsm %s: %s", String.join(" ", args), r.err()).isZero();
    return r;
  }

  /** Feeds {@code input} to {@code fsm --store STORE shell}, which must succeed throughout. */
  private FsmJar.Result shellOk(String store, String input) throws Exception {
    Path in = Files.writeString(dir.resolve("input.txt"), input);
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    ProcessBuilder pb = new ProcessBuilder(JarCommand.of(List.of("--store", store, "shell")))
        .directory(dir.toFile()).redirectInput(in.toFile()).redirectOutput(out.toFile())
        .redirectError(err.toFile());
    pb.environment().remove("NO_COLOR");
    pb.environment().remove("FSM_STORE");
    pb.environment().remove("FSM_MACHINES");
    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    FsmJar.Result r = new FsmJar.Result(p.exitValue(), read(out), read(err));
    assertThat(r.exit()).as("shell on %s:\n%s\n%s", store, input, r.err()).isZero();
    return r;
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
