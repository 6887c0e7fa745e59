package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Runs the jar in a folder against one store, as the task ITs do over and over: one process a
 * verb, or (through {@link #jsonEach}) a run of verbs typed into one {@code fsm shell}, which
 * spares a JVM start per verb where a test checks what the verbs print, not how they start.
 */
final class StoreCommands {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir;
  private final String store;

  StoreCommands(Path dir, String store) {
    this.dir = dir;
    this.store = store;
  }

  /** {@code fsm ARGS --store STORE}, whatever its exit status. */
  FsmJar.Result run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--store", store));
    return FsmJar.run(dir, all.toArray(String[]::new));
  }

  /** The same, asserting it succeeded. */
  FsmJar.Result ok(String... args) {
    FsmJar.Result r = run(args);
    assertThat(r.exit()).as("fsm %s: %s", String.join(" ", args), r.err()).isZero();
    return r;
  }

  /** The same with {@code --output json}, parsed. */
  JsonNode json(String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--output", "json"));
    return JSON.readTree(ok(all.toArray(String[]::new)).out());
  }

  /** One verb of a {@link #jsonEach} script: its words, without {@code fsm}. */
  static List<String> verb(String... words) {
    return List.of(words);
  }

  /**
   * Each verb's {@code --output json} document, the verbs piped into one {@code fsm shell
   * --store STORE}, asserting every one succeeded. A verb that fails prints no document, so the
   * count of documents and the shell's exit status (that of the last failed verb) check that.
   */
  @SafeVarargs
  @SuppressWarnings("varargs") // The array only becomes a List, never written.
  final List<JsonNode> jsonEach(List<String>... verbs) throws IOException {
    return jsonEach(List.of(verbs));
  }

  /** The same for a list of verbs, as a loop makes them. */
  List<JsonNode> jsonEach(List<List<String>> verbs) throws IOException {
    StringBuilder script = new StringBuilder();
    for (List<String> words : verbs) {
      script.append(words.stream().map(StoreCommands::quoted).collect(Collectors.joining(" ")))
          .append(" --output json\n");
    }
    Path stdin = Files.createTempFile("fsm-script", ".txt");
    FsmJar.Result r;
    try {
      Files.writeString(stdin, script, StandardCharsets.UTF_8);
      r = FsmJar.run(dir, Map.of(), stdin, "shell", "--store", store);
    } finally {
      Files.deleteIfExists(stdin);
    }
    String what = "fsm shell with\n" + script;
    assertThat(r.exit()).as("%s%s", what, r.err()).isZero();
    List<JsonNode> documents = new ArrayList<>();
    // Not readValues: it would take a document that is an array for a sequence of its items.
    try (JsonParser parser = JSON.createParser(r.out())) {
      while (parser.nextToken() != null) {
        documents.add(JSON.readTree(parser));
      }
    }
    assertThat(documents).as("one document a verb from %s%s", what, r.err())
        .hasSize(verbs.size());
    return documents;
  }

  /** A word as the shell reads it back: in single quotes, a quote inside closed and escaped. */
  private static String quoted(String word) {
    if (word.contains("\n")) {
      throw new IllegalArgumentException("a shell line cannot hold a newline: " + word);
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
