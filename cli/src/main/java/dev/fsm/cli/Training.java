package dev.fsm.cli;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A representative, side-effect-free workload that the launcher runs once to record a
 * class-data archive (JDK 17+) or an AOT cache (JDK 25+), so later starts skip class loading
 * and linking. It never touches the user's stores or files: its store lives in a temporary
 * folder it deletes.
 *
 * <p>Two profiles: {@code quick} trains only {@code validate}'s fast path ({@link FastPath}), the
 * one verb the launcher gives it; {@code full} trains the fast path, send to a stand-in runner,
 * every verb through picocli, and the task verbs on an embedded store of its own (measured:
 * opening a store loaded 700 classes outside the archive, half of a one-shot {@code ls}).
 * A JDK 25 AOT cache loads every class it holds at start, used or not, so {@code quick} holds
 * nothing {@code validate} does not run: trained on send and a temporary folder as well, it held
 * 670 more classes (sockets, Jackson, logging, SecureRandom) and {@code fsm validate} used about
 * 10% more CPU (docs/startup.md).
 */
public final class Training {

  private Training() {}

  public static void main(String[] args) throws IOException {
    boolean quick = args.length > 0 && args[0].equals("quick");
    Path dir = trainingDir();
    try {
      Path good = dir.resolve("fifty.yaml");
      try (InputStream in = Training.class.getResourceAsStream("training/fifty.yaml")) {
        Files.write(good, in.readAllBytes());
      }
      Path bad = dir.resolve("bad.yaml");
      Files.writeString(bad, "machine: bad\ninitial: nope\nstates:\n  a: {run: builtin:noop, on:"
          + " {ok: b}}\n  b: {final: done}\n  c: [x]\n");
      // Encodes what it is given, as Main's writers over stdout and stderr do, so the cache
      // holds the encoder's classes too (over a null Writer, three were read from the JDK's
      // image on every start).
      PrintWriter sink = new PrintWriter(OutputStream.nullOutputStream(), true);
      Main.handleUncaught(sink);
      Map<String, String> env = System.getenv();
      String[][] fastLines = {
        {"validate", good.toString()},
        {"validate", bad.toString(), good.toString()},
        {"validate", "-v", dir.toString()},
      };
      String[][] fullLines = {
        {"validate", "--output", "json", bad.toString()},
        {"--version"},
        {"--help"},
        {"validate", "--help"},
        {"no-such-verb"},
      };
      train(fastLines, env, sink);
      if (!quick) {
        sendLines(dir, env, sink);
        train(fullLines, env, sink);
        storeLines(dir, env, sink);
      }
    } finally {
      delete(dir.toFile());
    }
  }

  /**
   * A new, empty folder for the training run. Not {@link Files#createTempDirectory}: it names
   * folders with {@code SecureRandom}, whose 50-odd classes would go into the cache and be loaded
   * on every start; a folder that did not exist before is all the training needs.
   */
  private static Path trainingDir() throws IOException {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    for (long n = System.nanoTime(); ; n++) {
      try {
        return Files.createDirectory(tmp.resolve("fsm-training-" + n));
      } catch (FileAlreadyExistsException e) {
        // Another training run took this name; try the next.
      }
    }
  }

  /** Deletes a folder tree with java.io.File, whose classes every JVM has loaded already. */
  private static void delete(File file) {
    File[] children = file.listFiles();
    if (children != null) {
      for (File child : children) {
        delete(child);
      }
    }
    file.delete();
  }

  private static void train(String[][] lines, Map<String, String> env, PrintWriter sink) {
    for (String[] line : lines) {
      Main.run(line, env, sink, sink);
    }
  }

  /** The task verbs on an embedded store in {@code dir}, with no runner. */
  private static void storeLines(Path dir, Map<String, String> env, PrintWriter sink)
      throws IOException {
    String store = dir.resolve("own-store").toString();
    Path machines = Files.createDirectories(dir.resolve("machines"));
    Files.copy(dir.resolve("fifty.yaml"), machines.resolve("fifty.yaml"));
    String[] at = {"--store", store, "--machines", machines.toString()};
    String[][] verbs = {
      {"start", "big", "--id", "t1", "--context", "{\"n\": 1}"},
      {"start", "big", "--id", "t2", "--output", "json"},
      {"ls"},
      {"ls", "--output", "json", "--status", "runnable", "--limit", "5"},
      {"show", "t1"},
      {"show", "t1", "--output", "json"},
      {"history", "t1"},
      {"send", "t1", "pause"},
      {"send", "t1", "run", "--output", "json"},
      {"stats"},
      {"machines"},
      {"store", "check"},
      {"show", "none"},
    };
    for (String[] verb : verbs) {
      String[] line = new String[at.length + verb.length];
      System.arraycopy(at, 0, line, 0, at.length);
      System.arraycopy(verb, 0, line, at.length, verb.length);
      Main.run(line, env, sink, sink);
    }
  }

  /**
   * Sends commands to a stand-in runner. Best effort: a cache of the other verbs is still worth
   * having where this process cannot serve a control socket.
   */
  private static void sendLines(Path dir, Map<String, String> env, PrintWriter sink) {
    String store = dir.resolve("store").toString();
    try (TrainingRunner runner = new TrainingRunner(Path.of(store))) {
      train(new String[][] {
        {"--store", store, "send", "t1", "pause"},
        {"--store", store, "send", "t1", "run", "--reason", "training"},
        {"--store", store, "--output", "json", "send", "t1", "pause"},
        {"--store", store, "send", "t1", "sleep", "--until", "1h"},
        {"--store", store, "send", "t", "run"},
        {"--store", store, "send", "none", "run"},
      }, env, sink);
    } catch (IOException | RuntimeException e) {
      // Trained without send.
    }
  }
}
