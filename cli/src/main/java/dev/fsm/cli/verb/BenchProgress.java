package dev.fsm.cli.verb;

import dev.fsm.bench.BenchListener;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Shows a bench run on stderr: a line per phase, and on a terminal a progress line redrawn in
 * place for long phases (quiet when stderr is a file or a pipe).
 */
final class BenchProgress implements BenchListener {

  private final PrintWriter err;
  private final boolean terminal;
  private long lastPercent = -1;

  BenchProgress(PrintWriter err, boolean terminal) {
    this.err = err;
    this.terminal = terminal;
  }

  @Override
  public void phase(String what) {
    err.println("bench: " + what + "...");
    err.flush();
    lastPercent = -1;
  }

  @Override
  public void progress(String what, long done, long total) {
    if (!terminal || total <= 0) {
      return;
    }
    long percent = done * 100 / total;
    if (percent == lastPercent && done < total) {
      return;
    }
    lastPercent = percent;
    err.print(String.format(Locale.ROOT, "\rbench: %s %,d / %,d (%d%%)", what, done, total,
        percent));
    if (done >= total) {
      err.println();
    }
    err.flush();
  }
}
