package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fsm send} through the fast path prints exactly what picocli's route prints: each line
 * runs once per route, against twin stores served as a runner serves them, so both routes meet
 * tasks in the same state. Lines the fast path must not take are declined with no output.
 */
class FastSendTest {

  private static final String STORE = "STORE";

  @TempDir Path dir;
  private ServedStore fastStore;
  private ServedStore fullStore;

  record Run(int exit, String out, String err) {}

  @BeforeEach
  void serve() throws Exception {
    fastStore = new ServedStore(dir.resolve("fast"));
    fullStore = new ServedStore(dir.resolve("full"));
  }

  @AfterEach
  void stop() {
    fastStore.close();
    fullStore.close();
  }

  @Test
  void sendsCommonLinesExactlyLikePicocli() {
    List<String[]> lines = List.of(
        new String[] {"--store", STORE, "send", "t1", "pause"},
        new String[] {"send", "t1", "pause", "--store", STORE},
        new String[] {"send", "--store=" + STORE, "t1", "run", "--reason", "back to work"},
        new String[] {"--output", "json", "--store", STORE, "send", "t2", "pause"},
        new String[] {"send", "t2", "run", "--output=json", "--reason=a=b", "--store", STORE},
        new String[] {"-v", "--store", STORE, "send", "--no-color", "t3", "sleep", "--until",
            "2030-01-31T09:00:00Z"},
        new String[] {"--store", STORE, "--output", "json", "send", "t3", "run"},
        new String[] {"--store", STORE, "send", "t4", "sleep", "--until=2031-02-03T10:00"},
        new String[] {"--store", STORE, "send", "t4", "error", "--reason", "disk full",
            "--output", "json"},
        new String[] {"--store", STORE, "send", "uniq", "checkpoint"},
        new String[] {"--store", STORE, "send", "t1", "kill", "--verbose"},
        new String[] {"--store", STORE, "send", "t1", "run"},
        new String[] {"--store", STORE, "send", "t1", "resume"},
        new String[] {"--store", STORE, "send", "t1", "run", "--output", "json"},
        new String[] {"--store", STORE, "send", "amb", "pause"},
        new String[] {"--store", STORE, "send", "nope", "pause"},
        new String[] {"--store", STORE, "--machines", "elsewhere", "send", "t3", "complete"},
        new String[] {"--store", STORE, "send", "t2", "pause", "--reason", "ls"});
    for (String[] line : lines) {
      String shown = String.join(" ", line);
      Run fast = fast(with(line, fastStore)).orElseThrow(
          () -> new AssertionError("declined " + shown));
      assertThat(fast).as(shown).isEqualTo(picocli(with(line, fullStore)));
    }
  }

  @Test
  void declinesAnythingUnusual() throws Exception {
    List<String[]> lines = List.of(
        new String[] {"--store", STORE, "send", "t1"},
        new String[] {"--store", STORE, "send", "t1", "pause", "extra"},
        new String[] {"--store", STORE, "send", "t1", "paws"},
        new String[] {"--store", STORE, "send", "t1", "sleep"},
        new String[] {"--store", STORE, "send", "t1", "pause", "--until", "10m"},
        new String[] {"--store", STORE, "send", "t1", "sleep", "--until", "soon"},
        new String[] {"--store", STORE, "send", "--machine", "nap", "pause"},
        new String[] {"--store", STORE, "send", "t1", "pause", "--dry-run"},
        new String[] {"--store", STORE, "send", "t1", "pause", "--after-step"},
        new String[] {"--store", STORE, "send", "t1", "pause", "--state", "a"},
        new String[] {"--store", STORE, "send", "--help"},
        new String[] {"--store", STORE, "send", "-h"},
        new String[] {"--store", STORE, "help", "send"},
        new String[] {"--store", STORE, "send", "t1", "pause", "--reason", "a", "--reason", "b"},
        new String[] {"--store", STORE, "send", "t1", "pause", "-v", "-v"},
        new String[] {"--store", STORE, "send", "t1", "pause", "-v", "--verbose"},
        new String[] {"--store", STORE, "send", "t1", "pause", "--no-color", "--no-color"},
        new String[] {"--store", STORE, "--store", STORE, "send", "t1", "pause"},
        new String[] {"--store", STORE, "send", "--", "t1", "pause"},
        new String[] {"--store", STORE, "send", "@args.txt"},
        new String[] {"--store", STORE, "send", "t1", "pause", "--reason", "-x"},
        new String[] {"--store", STORE, "send", "t1", "pause", "--reason="},
        new String[] {"--store", STORE, "--reason", "x", "send", "t1", "pause"},
        new String[] {"--store", STORE, "send", "t1", "pause", "--output", "yaml"},
        new String[] {"--store", STORE, "sned", "t1", "pause"},
        new String[] {"--store", dir.resolve("missing").toString(), "send", "t1", "pause"},
        new String[] {"--store", "postgresql://db/fsm", "send", "t1", "pause"});
    for (String[] line : lines) {
      assertThat(fast(with(line, fastStore))).as(String.join(" ", line)).isEmpty();
    }
    assertThat(fastStore.control.get("t1").orElseThrow().status().word()).isEqualTo("runnable");
  }

  private static String[] with(String[] line, ServedStore store) {
    String folder = store.folder.toString();
    String[] args = line.clone();
    for (int i = 0; i < args.length; i++) {
      args[i] = args[i].replace(STORE, folder);
    }
    return args;
  }

  private static Map<String, String> env() {
    return Map.of("NO_COLOR", "1");
  }

  private static Optional<Run> fast(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    OptionalInt exit = FastPath.tryRun(args, env(), new PrintWriter(out, true),
        new PrintWriter(err, true));
    if (exit.isEmpty()) {
      assertThat(out.toString() + err).isEmpty();
      return Optional.empty();
    }
    return Optional.of(new Run(exit.getAsInt(), out.toString(), err.toString()));
  }

  private static Run picocli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Fsm.run(new PrintWriter(out, true), new PrintWriter(err, true), env(), args);
    return new Run(exit, out.toString(), err.toString());
  }
}
