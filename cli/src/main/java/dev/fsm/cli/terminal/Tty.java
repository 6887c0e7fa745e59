package dev.fsm.cli.terminal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether stdout or stderr is a terminal device. Java 17 can only ask about stdin and stdout
 * together ({@code System.console()}), which is the answer where /proc is missing.
 */
public final class Tty {

  private Tty() {}

  /** True when file descriptor 1 is a terminal: people read it, scripts do not. */
  public static boolean stdout() {
    return isTerminal(1);
  }

  /** True when file descriptor 2 is a terminal. */
  public static boolean stderr() {
    return isTerminal(2);
  }

  private static boolean isTerminal(int fd) {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException e) {
      return System.console() != null;
    }
  }
}
