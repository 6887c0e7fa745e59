package dev.fsm.cli.verb.store;

import dev.fsm.store.embedded.RebuildProgress;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * A rebuild's progress as one line redrawn in place on stderr, only on a terminal: output that
 * is not a terminal stays quiet and line-oriented (SPEC section 5).
 */
final class TerminalProgress implements RebuildProgress {

  private final PrintWriter err;
  private final String what;

  private TerminalProgress(PrintWriter err, String what) {
    this.err = err;
    this.what = what;
  }

  /** A progress line for {@code what} (e.g. "rebuilding index") on a terminal, else none. */
  static RebuildProgress forTerminal(PrintWriter err, String what) {
    return System.console() == null ? RebuildProgress.NONE : new TerminalProgress(err, what);
  }

  @Override
  public void progress(long recordsDone, long recordsTotal) {
    long percent = recordsTotal == 0 ? 100 : Math.min(100, recordsDone * 100 / recordsTotal);
    err.print(String.format(Locale.ROOT, "\r%s: %,d/%,d journal records (%d%%)", what,
        recordsDone, recordsTotal, percent));
    if (recordsDone >= recordsTotal) {
      err.println();
    }
    err.flush();
  }
}
