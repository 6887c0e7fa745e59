package dev.fsm.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the packaged jar on a pseudo-terminal of a given size, through util-linux {@code script},
 * so a test sees what a person at a terminal sees: stdout and stderr together, as the terminal
 * shows them (line ends as {@code \n}, carriage returns that redraw a line kept).
 */
final class Pty {

  private Pty() {}

  /** True when {@code script} is here to make a terminal; tests that need one skip otherwise. */
  static boolean available() {
    try {
      Process p = new ProcessBuilder("script", "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** {@code fsm ARGS} in {@code dir} on a terminal {@code columns} wide; err is always empty. */
  static FsmJar.Result run(Path dir, int columns, String... args) {
    StringBuilder command = new StringBuilder("stty cols " + columns + " rows 40; exec");
    List<String> words = new ArrayList<>(JarCommand.of(List.of(args)));
    for (String word : words) {
      command.append(" '").append(word.replace("'", "'\\''")).append('\'');
    }
    ProcessBuilder pb = new ProcessBuilder("script", "-qefc", command.toString(), "/dev/null")
        .directory(dir.toFile());
    // Plain text to assert on; colours on a terminal are tested elsewhere.
    pb.environment().put("NO_COLOR", "1");
    pb.environment().remove("COLUMNS");
    pb.environment().remove("FSM_MACHINES");
    pb.environment().remove("FSM_STORE");
    pb.environment().put("TERM", "xterm");
    try {
      Path out = Files.createTempFile("fsm-pty", ".txt");
      pb.redirectOutput(out.toFile()).redirectErrorStream(true)
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      Process p = pb.start();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("fsm " + String.join(" ", args) + " did not finish in 60 s");
      }
      String text = Files.readString(out, StandardCharsets.UTF_8).replace("\r\n", "\n");
      Files.deleteIfExists(out);
      return new FsmJar.Result(p.exitValue(), text, "");
    } catch (IOException e) {
      throw new AssertionError("cannot run script", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
