package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar sends commands to a real {@code fsm run} through the fast path: the answers
 * are the full verb's, and neither picocli nor the embedded store is loaded.
 */
class FastSendIT {

  @TempDir Path dir;
  private Process runner;

  @BeforeEach
  void startRunner() throws Exception {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/nap.yaml"), ServedStore.MACHINE);
    assertThat(FsmJar.run(dir, "start", "nap", "--id", "t1").exit()).isZero();
    runner = new ProcessBuilder(JarCommand.of(List.of("run"))).directory(dir.toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    Path socket = dir.resolve(".fsm/control.sock");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!Files.exists(socket)) {
      assertThat(System.nanoTime() - deadline).as("runner's socket").isNegative();
      assertThat(runner.isAlive()).as("runner alive").isTrue();
      Thread.sleep(50);
    }
  }

  @AfterEach
  void stopRunner() throws Exception {
    runner.destroy();
    if (!runner.waitFor(30, TimeUnit.SECONDS)) {
      runner.destroyForcibly();
    }
  }

  @Test
  void sendsThroughTheRunnerWithoutPicocliOrTheStore() throws Exception {
    Path log = dir.resolve("classes.log");
    Map<String, String> logClasses = Map.of("JDK_JAVA_OPTIONS",
        "-Xlog:class+load:file=" + log);
    FsmJar.Result paused = FsmJar.run(dir, logClasses, "send", "t1", "pause", "--reason", "hold");
    assertThat(paused.exit()).isZero();
    assertThat(paused.out()).matches("t1: pause sent; [a-z]+ -> paused\n");
    List<String> classes = Files.readAllLines(log);
    assertThat(classes).anyMatch(l -> l.contains(" dev.fsm.control.SocketControl "));
    assertThat(classes).noneMatch(l -> l.contains(" picocli.")
        || l.contains(" com.fasterxml.jackson.databind.") || l.contains(" org.mapdb."));

    FsmJar.Result json = FsmJar.run(dir, "--output", "json", "send", "t1", "run");
    assertThat(json.exit()).isZero();
    JsonNode task = new ObjectMapper().readTree(json.out());
    assertThat(task.get("id").asText()).isEqualTo("t1");
    assertThat(task.get("status").asText()).isNotEqualTo("paused");
    assertThat(json.err()).isEmpty();

    FsmJar.Result missing = FsmJar.run(dir, "send", "nope", "pause");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.out()).isEmpty();
    assertThat(missing.err()).isEqualTo("fsm: no task `nope`; `fsm ls` lists tasks\n");

    FsmJar.Result bulk = FsmJar.run(dir, "send", "--machine", "nap", "pause");
    assertThat(bulk.exit()).isZero();
    assertThat(bulk.out()).isEqualTo("pause: 1 task matched, 1 changed, 0 refused\n");
  }
}
