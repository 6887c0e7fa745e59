package dev.fsm.cli;

import java.io.PrintWriter;

/** The {@code fsm} executable: runs one command line and exits with its status. */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    int status = FastPath.tryRun(args, System.getenv(), out, err)
        .orElseGet(() -> Fsm.run(out, err, args));
    out.flush();
    err.flush();
    System.exit(status);
  }
}
