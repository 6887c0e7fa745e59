package dev.fsm.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged jar running in the background, such as {@code fsm run}, with its output in files
 * so a test can read what it printed so far, signal it, and wait for it to exit.
 */
final class FsmProcess implements AutoCloseable {

  private final Process process;
  private final Path out;
  private final Path err;
  private final String command;

  private FsmProcess(Process process, Path out, Path err, String command) {
    this.process = process;
    this.out = out;
    this.err = err;
    this.command = command;
  }

  static FsmProcess start(Path dir, String... args) {
    return start(dir, List.of(), args);
  }

  /**
   * The same with words in front of the java command, e.g. {@code ip netns exec NS}, which
   * replaces itself with java, so {@link #pid} stays that of the JVM.
   */
  static FsmProcess start(Path dir, List<String> prefix, String... args) {
    List<String> command = new java.util.ArrayList<>(prefix);
    command.addAll(JarCommand.of(List.of(args)));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().remove("NO_COLOR");
    pb.environment().remove("FSM_MACHINES");
    pb.environment().remove("FSM_STORE");
    try {
      Path out = Files.createTempFile(dir, "fsm-out", ".txt");
      Path err = Files.createTempFile(dir, "fsm-err", ".txt");
      pb.redirectOutput(out.toFile()).redirectError(err.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      return new FsmProcess(pb.start(), out, err, "fsm " + String.join(" ", args));
    } catch (IOException e) {
      throw new AssertionError("cannot start fsm.jar", e);
    }
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process.isAlive();
  }

  String out() {
    return read(out);
  }

  String err() {
    return read(err);
  }

  /** Waits until stderr shows the runner's banner, i.e. it holds the store and serves it. */
  FsmProcess awaitServing() {
    Await.until(command + " to start serving; stderr: " + err(), Duration.ofSeconds(20),
        () -> err().contains(" workers on ") || err().contains(" worker on ") || !alive());
    if (!alive()) {
      throw new AssertionError(command + " exited early: " + err());
    }
    return this;
  }

  /** SIGTERM, as {@code kill PID} sends. */
  void terminate() {
    process.destroy();
  }

  /** SIGKILL: no shutdown of any kind. */
  void kill() {
    process.destroyForcibly();
  }

  /** The exit status, failing the test when it takes longer than {@code limit}. */
  int awaitExit(Duration limit) {
    try {
      if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(command + " did not exit within " + limit.toMillis()
            + " ms; stderr: " + err());
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Kills the process if a failed test left it running. */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError("cannot read " + file, e);
    }
  }
}
