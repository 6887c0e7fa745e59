package dev.fsm.action.supervisor;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The program supervisor: a small process, one per runner, that stops the runner's programs when
 * the runner dies or stops renewing its leases, so a lease is enforced outside the runner's JVM
 * (a runner killed with SIGKILL, stalled or cut off from its store cannot stop them itself).
 * Started by {@link Supervisor} in a session of its own.
 *
 * <p>Arguments: the {@code NAME=VALUE} mark every program of the runner carries in its
 * environment, the grace in milliseconds between SIGTERM and SIGKILL, and the runner's pid (for
 * messages). Lines on stdin: {@code deadline MILLIS} (stop the programs unless a newer deadline
 * comes within MILLIS, measured on this process's monotonic clock), {@code idle} (no deadline:
 * the runner holds no lease), {@code bye} (the runner exits cleanly: exit without stopping
 * anything). End of input without {@code bye} means the runner died: every marked process is
 * stopped, then the supervisor exits. It prints {@code ready} on stdout once it reads its input.
 */
public final class SupervisorMain {

  private SupervisorMain() {}

  public static void main(String[] args) {
    if (args.length != 3 || !args[0].contains("=")) {
      System.err.println("usage: SupervisorMain NAME=VALUE GRACE_MILLIS RUNNER_PID (started by"
          + " fsm run, not by hand)");
      System.exit(2);
    }
    String runner = "runner pid " + args[2];
    String[] runnerStat = Proc.statFields(Proc.entry(Long.parseLong(args[2])));
    Sweep sweep = new Sweep(args[0], Duration.ofMillis(Long.parseLong(args[1])),
        runnerStat == null ? 0 : Long.parseLong(runnerStat[Proc.START_TIME]));
    // A dry run loads and runs the scan's code once, so the first real stop, on a busy machine,
    // does not pay for class loading when every millisecond before the lease's end counts.
    sweep.find();
    // Not System.in: a BufferedInputStream locks its reads, so asking whether a line is waiting
    // would block until one arrives.
    InputStream in = new FileInputStream(FileDescriptor.in);
    DeadlineWatch watch = new DeadlineWatch(sweep, in, n -> say(runner + " renewed no lease in"
        + " time: stopped " + n + " process(es) of its actions before their leases end"));
    Thread watching = new Thread(watch, "fsm-supervisor-deadline");
    watching.setDaemon(true);
    watching.start();
    // For whoever waits for it to be up; fsm run discards it.
    System.out.println("ready");
    System.out.flush();
    boolean bye = read(in, watch);
    watch.close();
    if (!bye) {
      try {
        int n = sweep.run(() -> true);
        if (n > 0) {
          say(runner + " is gone: stopped " + n + " process(es) of its actions that it left"
              + " running");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    System.exit(0);
  }

  /** Reads the runner's lines until the pipe closes; true when the runner said goodbye. */
  private static boolean read(InputStream in, DeadlineWatch watch) {
    BufferedReader lines = new BufferedReader(new InputStreamReader(in,
        StandardCharsets.US_ASCII));
    try {
      for (String line; (line = lines.readLine()) != null; ) {
        if (line.startsWith("deadline ")) {
          watch.deadline(Long.parseLong(line.substring("deadline ".length()).strip()));
        } else if (line.equals("idle")) {
          watch.idle();
        } else if (line.equals("bye")) {
          return true;
        } else {
          say("ignored a line the runner should not send: " + line);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // A pipe that breaks is a runner that is gone; a garbled line is treated the same way,
      // as its programs can no longer be trusted to be watched.
      say("cannot read the runner's pipe (" + e.getMessage() + "); treating the runner as gone");
    }
    return false;
  }

  private static void say(String message) {
    System.err.println("fsm supervisor: " + message);
    System.err.flush();
  }
}
