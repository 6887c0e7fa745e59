package dev.fsm.cli;

import dev.fsm.cli.common.ExitCodes;
import java.io.PrintWriter;
import java.util.Map;
import java.util.OptionalInt;

/** The {@code fsm} executable: runs one command line and exits with its status. */
public final class Main {

  private Main() {}

  /** How java.util.logging's console lines look, read only if something logs. */
  private static final String LOG_FORMAT = "java.util.logging.SimpleFormatter.format";

  public static void main(String[] args) {
    if (System.getProperty(LOG_FORMAT) == null) {
      // One line, as fsm's own messages are, instead of a date line and a level line.
      System.setProperty(LOG_FORMAT, "fsm: %4$s: %5$s%6$s%n");
    }
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    handleUncaught(err);
    int status;
    try {
      status = run(args, System.getenv(), out, err);
    } catch (OutOfMemoryError e) {
      outOfMemory(err);
      return;
    }
    out.flush();
    err.flush();
    if (status != ExitCodes.OK) {
      // Not System.exit: on JDK 21+ it first starts java.util.logging to log the exit, which
      // costs about 9 ms of a 60 ms command. Everything that needs closing is closed before
      // run() returns, so there is nothing for shutdown hooks to do.
      Runtime.getRuntime().halt(status);
    }
  }

  /**
   * Installs what a thread's uncaught exception does; {@link Training} calls it too, so the
   * start-up caches hold the handler's class (a class read from the jar costs the jar's first
   * opening by the class loader).
   */
  static void handleUncaught(PrintWriter err) {
    Thread.setDefaultUncaughtExceptionHandler(new Uncaught(err));
  }

  /** A class, not a lambda: the start-up caches are trained through {@link #run}, not main. */
  private record Uncaught(PrintWriter err) implements Thread.UncaughtExceptionHandler {
    @Override
    public void uncaughtException(Thread thread, Throwable e) {
      if (e instanceof OutOfMemoryError) {
        outOfMemory(err);
      } else {
        // What the JVM prints when no handler is set.
        System.err.print("Exception in thread \"" + thread.getName() + "\" ");
        e.printStackTrace();
      }
    }
  }

  /**
   * Ends the process on a full heap, in any thread: what was acknowledged is on disk, and a
   * process that lost a thread to it could not be trusted to go on. Says how to give it more.
   */
  private static void outOfMemory(PrintWriter err) {
    // The JVM reports the limit less a survivor space: 247 MiB of -Xmx256m.
    long mib = ((Runtime.getRuntime().maxMemory() >> 20) + 15) / 16 * 16;
    err.println("fsm: out of memory: the heap limit is " + mib + " MiB; raise it with"
        + " FSM_HEAP=" + Math.max(512, 2 * mib) + "m (bin/fsm) or java -Xmx... -jar fsm.jar");
    err.flush();
    Runtime.getRuntime().halt(ExitCodes.FAILED);
  }

  /** Runs one command line, through the fast path when it can; returns the exit status. */
  static int run(String[] args, Map<String, String> env, PrintWriter out, PrintWriter err) {
    OptionalInt fast = FastPath.tryRun(args, env, out, err);
    return fast.isPresent() ? fast.getAsInt() : Fsm.run(out, err, env, args);
  }
}
