package dev.fsm.cli.terminal;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Progress of long work as one line redrawn in place on stderr, only when stderr is a terminal:
 * elsewhere output stays quiet and line-oriented (SPEC section 5).
 */
public final class ProgressLine {

  private final PrintWriter err;
  private final boolean terminal;
  private long lastPercent = -1;

  private ProgressLine(PrintWriter err, boolean terminal) {
    this.err = err;
    this.terminal = terminal;
  }

  /** A progress line on {@code err}, which draws nothing unless stderr is a terminal. */
  public static ProgressLine onStderr(PrintWriter err) {
    return new ProgressLine(err, stderrIsTerminal());
  }

  /** Redraws "{@code what} done / total (percent)"; ends the line once done reaches total. */
  public void show(String what, long done, long total) {
    if (!terminal || total <= 0) {
      return;
    }
    long percent = Math.min(100, done * 100 / total);
    if (percent == lastPercent && done < total) {
      return;
    }
    lastPercent = done >= total ? -1 : percent;
    err.print(String.format(Locale.ROOT, "\r%s %,d / %,d (%d%%)", what, done, total, percent));
    if (done >= total) {
      err.println();
    }
    err.flush();
  }

  /** True when file descriptor 2 is a terminal device. */
  public static boolean stderrIsTerminal() {
    return Tty.stderr();
  }
}
