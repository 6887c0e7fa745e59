package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs the jar in a folder against one store there, as the task ITs do over and over. */
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
}
