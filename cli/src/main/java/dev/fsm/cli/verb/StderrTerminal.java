package dev.fsm.cli.verb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether standard error is a terminal, so that progress lines that redraw make sense there. */
final class StderrTerminal {

  private StderrTerminal() {}

  /**
   * True when file descriptor 2 is a terminal device. Java 17 can only ask about stdin and stdout
   * together ({@code System.console()}), which is the answer where /proc is missing.
   */
  static boolean isTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException e) {
      return System.console() != null;
    }
  }
}
