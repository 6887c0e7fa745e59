package dev.fsm.cli.verb;

import dev.fsm.bench.BenchListener;
import dev.fsm.cli.terminal.ProgressLine;
import java.io.PrintWriter;

/**
 * Shows a bench run on stderr: a line per phase, and on a terminal a progress line redrawn in
 * place for long phases.
 */
final class BenchProgress implements BenchListener {

  private final PrintWriter err;
  private final ProgressLine line;

  BenchProgress(PrintWriter err) {
    this.err = err;
    this.line = ProgressLine.onStderr(err);
  }

  @Override
  public void phase(String what) {
    err.println("bench: " + what + "...");
    err.flush();
  }

  @Override
  public void progress(String what, long done, long total) {
    line.show("bench: " + what, done, total);
  }
}
