package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shell fed from a pipe, the bash completion script in bash, and the live views. */
class ShellIT {

  @TempDir Path dir;

  @BeforeEach
  void tasks() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/approval.yaml"), """
        machine: approval
        states:
          review:
            on: {approve: done, reject: rejected}
          done: {final: completed}
          rejected: {final: failed}
        """);
    for (String id : List.of("alpha-1", "alpha-2", "beta-1")) {
      assertThat(FsmJar.run(dir, env(), "start", "approval", "--id", id).exit()).isZero();
    }
  }

  @Test
  void pipedCommandsRunInOrderPlainlyAndTheLastFailureIsTheStatus() throws Exception {
    FsmJar.Result r = shell("""
        # a comment, then a blank line

        ls
        show nosuch
        signal beta-1 approve
        ls --status completed --output json
        """);
    assertThat(r.out()).contains("alpha-2").contains("\"id\" : \"beta-1\"")
        .doesNotContain("\u001b").doesNotContain("fsm>");
    assertThat(r.err()).startsWith("fsm: no task").doesNotContain("WARNING")
        .doesNotContain("\u001b");
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void aUsageErrorGivesTwoAndACleanRunGivesZero() throws Exception {
    assertThat(shell("lss\nls\n").exit()).isEqualTo(2);
    assertThat(shell("ls\nexit\nshow nosuch\n").exit()).isZero();
    FsmJar.Result empty = shell("");
    assertThat(empty.exit()).isZero();
    assertThat(empty.out()).isEmpty();
    assertThat(empty.err()).isEmpty();
  }

  @Test
  void bashCompletesVerbsFromTheScriptAndTaskIdsFromTheStore() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path fsm = bin.resolve("fsm");
    Files.writeString(fsm, "#!/bin/sh\nexec '" + java() + "' -jar '" + FsmJar.jar() + "' \"$@\"\n");
    Files.setPosixFilePermissions(fsm, PosixFilePermissions.fromString("rwxr-xr-x"));
    String script = FsmJar.repo().resolve("completions/fsm.bash").toString();
    String out = bash("source '" + script + "'\n"
        + "t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=();"
        + " _fsm; echo \"${COMPREPLY[*]}\"; }\n"
        + "t fsm sh\n"
        + "t fsm ls --st\n"
        + "t fsm show al\n"
        + "t fsm ls --status = ru\n", bin);
    assertThat(out.lines()).containsExactly("show shell", "--state --status --store",
        "alpha-1 alpha-2", "runnable");
  }

  @Test
  void watchPrintsCountsAndTailStreamsJsonLines() throws Exception {
    // The approval tasks wait for a signal: they show and select as waiting, not runnable.
    FsmJar.Result watch = FsmJar.run(dir, env(), "watch", "--count", "1", "--status", "waiting");
    assertThat(watch.exit()).isZero();
    assertThat(watch.out()).contains("3 waiting").contains("DUE/UPDATED").contains("beta-1")
        .doesNotContain("\u001b");
    assertThat(FsmJar.run(dir, env(), "watch", "--count", "1", "--status", "runnable").out())
        .contains("none").doesNotContain("beta-1");
    ProcessBuilder tailing = new ProcessBuilder(JarCommand.of(List.of("tail",
        "--output", "json", "--interval", "100ms"))).directory(dir.toFile());
    tailing.environment().putAll(env());
    Process tail = tailing.start();
    try {
      BufferedReader err = new BufferedReader(new InputStreamReader(tail.getErrorStream(),
          StandardCharsets.UTF_8));
      assertThat(lineWithin(err)).as("tail says when it follows")
          .startsWith("fsm tail: following");
      assertThat(FsmJar.run(dir, env(), "signal", "alpha-1", "approve").exit()).isZero();
      String line = lineWithin(new BufferedReader(new InputStreamReader(tail.getInputStream(),
          StandardCharsets.UTF_8)));
      assertThat(line).startsWith("{\"task\":\"alpha-1\",\"machine\":\"approval\"")
          .contains("\"from\":\"review\",\"event\":\"approve\",\"to\":\"done\"");
    } finally {
      tail.destroy();
      // It may be opening the store in the folder the test is about to delete.
      assertThat(tail.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  /** The next line, waited for at most 30 s so a silent process fails the test, not hangs it. */
  private static String lineWithin(BufferedReader reader) throws Exception {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return reader.readLine();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }).get(30, TimeUnit.SECONDS);
  }

  private FsmJar.Result shell(String input) throws Exception {
    Path in = dir.resolve("input.txt");
    Files.writeString(in, input);
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    ProcessBuilder pb = new ProcessBuilder(JarCommand.of(List.of("shell")))
        .directory(dir.toFile()).redirectInput(in.toFile()).redirectOutput(out.toFile())
        .redirectError(err.toFile());
    pb.environment().remove("NO_COLOR");
    pb.environment().putAll(env());
    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new FsmJar.Result(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  private String bash(String script, Path bin) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(dir.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    pb.environment().put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
    pb.environment().putAll(env());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  /** The environment of every fsm the test runs: a subclass names another store in it. */
  Map<String, String> env() {
    return Map.of();
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
