package dev.fsm.action.supervisor;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A runner's side of its program supervisor ({@link SupervisorMain}): started with the first
 * program, told the runner's lease deadlines through a pipe, and told goodbye when the runner
 * closes. Every program the runner starts carries {@link #mark()} in its environment, which is
 * how the supervisor finds them all. Lines are written by a thread of their own, so a stalled
 * supervisor never stalls the runner; only the newest deadline is sent. Thread-safe.
 */
public final class Supervisor implements Deadlines, AutoCloseable {

  /** The environment variable that marks every process of one runner's programs. */
  public static final String VARIABLE = "FSM_RUNNER_MARK";

  /** A small JVM that starts fast: the supervisor reads a pipe and scans /proc, nothing more. */
  static final List<String> JVM_FLAGS = List.of("-Xmx16m", "-Xss256k", "-XX:+UseSerialGC",
      "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:ReservedCodeCacheSize=8m",
      "-XX:-UsePerfData", "-Xshare:auto");

  private static final Path SETSID = Path.of("/usr/bin/setsid");

  /** A supervisor that keeps dying is given up after this many starts. */
  private static final int MOST_STARTS = 5;

  private static final long CLOSE_WAIT_MILLIS = 1000;

  private final String id;
  private final Duration grace;
  private final Consumer<String> problems;
  private final Object lock = new Object();
  private Process process;
  private int starts;
  private boolean off;
  private boolean closed;
  private long deadline;
  private boolean deadlineSet;
  private long version;
  private long written;
  private Thread writer;

  /**
   * @param grace how long a program has between SIGTERM and SIGKILL when the supervisor stops it
   * @param problems told, once each, when the supervisor cannot start or dies
   */
  public Supervisor(Duration grace, Consumer<String> problems) {
    byte[] random = new byte[16];
    new SecureRandom().nextBytes(random);
    this.id = ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(random);
    this.grace = grace;
    this.problems = problems;
  }

  /** The {@code NAME=VALUE} environment entry every program of this runner carries. */
  public String mark() {
    return VARIABLE + "=" + id;
  }

  /** The value of {@link #VARIABLE} for this runner's programs. */
  public String id() {
    return id;
  }

  /** The supervisor's pid while one runs. */
  public Optional<Long> pid() {
    synchronized (lock) {
      return process == null ? Optional.empty() : Optional.of(process.pid());
    }
  }

  /**
   * Starts the supervisor unless one runs: call before starting a program. Without {@code /proc}
   * or when it cannot start, says so once and programs run unsupervised.
   */
  public void ensure() {
    synchronized (lock) {
      if (process == null && !off && !closed) {
        start();
      }
    }
  }

  @Override
  public void deadline(Duration fromNow) {
    synchronized (lock) {
      deadline = System.nanoTime() + fromNow.toNanos();
      deadlineSet = true;
      changed();
    }
  }

  @Override
  public void idle() {
    synchronized (lock) {
      deadlineSet = false;
      changed();
    }
  }

  /** Says goodbye: the supervisor exits without stopping anything. */
  @Override
  public void close() {
    Process p;
    Thread w;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      p = process;
      w = writer;
      lock.notifyAll();
    }
    try {
      if (w != null) {
        w.join(CLOSE_WAIT_MILLIS);
      }
      if (p != null) {
        p.waitFor(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void changed() {
    version++;
    if (process == null && starts > 0 && !off && !closed) {
      // One died while programs may run: a new one takes over every marked process.
      start();
    }
    lock.notifyAll();
  }

  private void start() {
    if (!Proc.PRESENT || !Files.isExecutable(SETSID)) {
      giveUp("this system has no " + (Proc.PRESENT ? SETSID : "/proc"));
      return;
    }
    if (starts >= MOST_STARTS) {
      giveUp("it exited " + starts + " times");
      return;
    }
    starts++;
    Process p;
    try {
      p = new ProcessBuilder(command(mark(), grace, ProcessHandle.current().pid()))
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.INHERIT)
          .start();
    } catch (IOException e) {
      giveUp("cannot start it: " + e.getMessage());
      return;
    }
    process = p;
    // The first line it reads is the newest deadline, given before it started or not.
    written = version - 1;
    p.onExit().thenAccept(this::exited);
    if (writer == null) {
      writer = new Thread(this::write, "fsm-supervisor-pipe");
      writer.setDaemon(true);
      writer.start();
    }
    lock.notifyAll();
  }

  /**
   * The command that starts a supervisor: the runner's own {@code java} and class path, in a
   * session of its own, so a Ctrl-C on the runner's terminal does not reach it.
   */
  static List<String> command(String mark, Duration grace, long runnerPid) {
    String java = ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> command = new ArrayList<>();
    command.add(SETSID.toString());
    command.add(java);
    command.addAll(JVM_FLAGS);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SupervisorMain.class.getName());
    command.add(mark);
    command.add(Long.toString(grace.toMillis()));
    command.add(Long.toString(runnerPid));
    return command;
  }

  private void exited(Process p) {
    synchronized (lock) {
      if (closed || p != process) {
        return;
      }
      process = null;
      problems.accept("the program supervisor (pid " + p.pid() + ") exited with status "
          + p.exitValue() + "; another starts with the next program or lease renewal");
    }
  }

  private void giveUp(String why) {
    off = true;
    problems.accept("no program supervisor: " + why + "; programs stop only with this runner,"
        + " and those a killed runner leaves are stopped by the next runner on this host");
  }

  /** The writer thread: sends the newest deadline whenever it changes, then goodbye. */
  private void write() {
    while (true) {
      String line;
      Process p;
      synchronized (lock) {
        while (!closed && (process == null || written == version)) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        p = process;
        if (closed) {
          line = "bye";
        } else {
          written = version;
          line = deadlineSet ? "deadline "
              + Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) : "idle";
        }
      }
      if (p != null) {
        send(p, line);
      }
      if (line.equals("bye")) {
        return;
      }
    }
  }

  private static void send(Process p, String line) {
    OutputStream pipe = p.getOutputStream();
    try {
      pipe.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
      pipe.flush();
      if (line.equals("bye")) {
        pipe.close();
      }
    } catch (IOException e) {
      // The supervisor is gone; its exit is reported and a new one started.
    }
  }
}
