package dev.fsm.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the packaged {@code fsm.jar} as a user would: a separate process in a folder. */
final class FsmJar {

  /** What a run printed and how it exited. */
  record Result(int exit, String out, String err) {
    List<String> outLines() {
      return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }
  }

  private FsmJar() {}

  static Path jar() {
    return Path.of(System.getProperty("fsm.jar", "target/fsm.jar")).toAbsolutePath();
  }

  static Path repo() {
    return Path.of(System.getProperty("fsm.repo", "..")).toAbsolutePath().normalize();
  }

  static Result run(Path dir, String... args) {
    return run(dir, Map.of(), args);
  }

  static Result run(Path dir, Map<String, String> env, String... args) {
    return run(dir, env, Path.of("/dev/null"), args);
  }

  /** The same with stdin read from a file, as {@code fsm ARGS < FILE} would. */
  static Result run(Path dir, Map<String, String> env, Path stdin, String... args) {
    return run(dir, env, ProcessBuilder.Redirect.from(stdin.toFile()), null, args);
  }

  /** The same with {@code input} written to a pipe on stdin, as {@code echo | fsm ARGS} would. */
  static Result piped(Path dir, String input, String... args) {
    return run(dir, Map.of(), ProcessBuilder.Redirect.PIPE, input, args);
  }

  private static Result run(Path dir, Map<String, String> env, ProcessBuilder.Redirect stdin,
      String input, String... args) {
    List<String> command = JarCommand.of(List.of(args), env);
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().remove("NO_COLOR");
    pb.environment().remove("FSM_MACHINES");
    pb.environment().remove("FSM_STORE");
    pb.environment().putAll(env);
    try {
      Path out = Files.createTempFile("fsm-out", ".txt");
      Path err = Files.createTempFile("fsm-err", ".txt");
      pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(stdin);
      Process p = pb.start();
      if (input != null) {
        try (var pipe = p.getOutputStream()) {
          pipe.write(input.getBytes(StandardCharsets.UTF_8));
        }
      }
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("fsm " + String.join(" ", args) + " did not finish in 60 s");
      }
      Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
      return r;
    } catch (IOException e) {
      throw new AssertionError("cannot run fsm.jar", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
