package dev.fsm.bench.fleet;

import dev.fsm.FsmException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One {@code fsm run} process of the fleet: started, awaited until it serves the store (its
 * "N workers on STORE (pid P)" line), stopped as a user would (SIGTERM), its last lines kept
 * for a message when it fails.
 */
final class RunnerProcess {

  private static final int KEPT_LINES = 5;

  private final Process process;
  private final CountDownLatch ready = new CountDownLatch(1);
  private final Deque<String> lastLines = new ArrayDeque<>();
  private final Thread reader;

  private RunnerProcess(Process process) {
    this.process = process;
    this.reader = new Thread(this::readErrors, "fsm-bench-runner-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts {@code command} on {@code store}, given as {@code $FSM_STORE} so that a password in
   * it stays out of the process list; its output is not read, its errors are.
   */
  static RunnerProcess start(List<String> command, String store) {
    try {
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      builder.environment().put("FSM_STORE", store);
      return new RunnerProcess(builder.start());
    } catch (IOException e) {
      throw new FsmException("could not start a bench runner (" + command.get(0) + "): "
          + e.getMessage());
    }
  }

  long pid() {
    return process.pid();
  }

  /** Waits until the runner serves the store; fails if it exits or takes over a minute. */
  void awaitReady() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (!ready.await(100, TimeUnit.MILLISECONDS)) {
      checkAlive();
      if (System.nanoTime() > deadline) {
        throw new FsmException("bench runner pid " + pid() + " did not start serving the"
            + " store within a minute" + said());
      }
    }
  }

  /** Fails when the runner has exited before it was stopped. */
  void checkAlive() throws InterruptedException {
    if (!process.isAlive()) {
      reader.join(TimeUnit.SECONDS.toMillis(5));
      throw new FsmException("bench runner pid " + pid() + " exited with " + process.exitValue()
          + " before the tasks were done" + said());
    }
  }

  /** Asks the runner to stop (SIGTERM) without waiting. */
  void stop() {
    process.destroy();
  }

  /** Waits for a stopped runner's exit; fails on an exit code other than 0. */
  void awaitExit() throws InterruptedException {
    if (!process.waitFor(1, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new FsmException("bench runner pid " + pid() + " did not stop within a minute of"
          + " SIGTERM" + said());
    }
    reader.join(TimeUnit.SECONDS.toMillis(5));
    if (process.exitValue() != 0) {
      throw new FsmException("bench runner pid " + pid() + " exited with "
          + process.exitValue() + said());
    }
  }

  private void readErrors() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getErrorStream(),
        StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        if (line.startsWith("fsm run: ") && line.contains("(pid " + process.pid() + ")")) {
          ready.countDown();
        }
        synchronized (lastLines) {
          lastLines.addLast(line);
          if (lastLines.size() > KEPT_LINES) {
            lastLines.removeFirst();
          }
        }
      }
    } catch (IOException e) {
      // The process is gone; what it said so far is kept.
    }
  }

  private String said() {
    synchronized (lastLines) {
      return lastLines.isEmpty() ? "" : "; it said: " + String.join(" | ", lastLines);
    }
  }

  /**
   * Stops every runner still alive: SIGTERM, then SIGKILL for those not gone within a few
   * seconds. For a bench that failed or was stopped; their tasks' leases then end by themselves.
   */
  static void stopAll(List<RunnerProcess> runners) {
    runners.forEach(RunnerProcess::stop);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    for (RunnerProcess r : runners) {
      try {
        long left = deadline - System.nanoTime();
        if (left <= 0 || !r.process.waitFor(left, TimeUnit.NANOSECONDS)) {
          r.process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        r.process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
