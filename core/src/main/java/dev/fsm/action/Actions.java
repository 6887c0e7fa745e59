package dev.fsm.action;

import dev.fsm.action.supervisor.Deadlines;
import dev.fsm.action.supervisor.Supervisor;
import dev.fsm.model.Action;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs any action by its kind: programs, built-ins and {@code java:} classes. One instance serves
 * every worker of a runner; thread-safe. Close it when the runner stops.
 */
public final class Actions implements ActionRunner, AutoCloseable {

  private final ExecutorService io;
  private final PluginLoader plugins;
  private final ProgramRunner programs;
  private final BuiltinRunner builtins = new BuiltinRunner();
  private final JavaRunner java;
  private final Supervisor supervisor;

  /** Actions whose programs run without a supervisor: for one-off runs and tests. */
  public Actions(ActionOptions options) {
    this(options, null);
  }

  /**
   * A runner's actions: its programs run under a {@link Supervisor}, started with the first of
   * them, which tells {@code problems} when it cannot start or dies.
   */
  public Actions(ActionOptions options, Consumer<String> problems) {
    this.io = ioThreads();
    this.plugins = new PluginLoader(options.plugins());
    this.supervisor = problems == null ? null : new Supervisor(options.grace(), problems);
    this.programs = new ProgramRunner(options, io, Files.isExecutable(ProgramRunner.SETSID),
        supervisor);
    this.java = new JavaRunner(plugins);
  }

  /** Where the runner gives its lease deadlines: the supervisor, or nowhere without one. */
  public Deadlines deadlines() {
    return supervisor == null ? Deadlines.NONE : supervisor;
  }

  @Override
  public ActionOutcome run(ActionRequest request, Attempt attempt) {
    if (attempt.stopRequested()) {
      return new ActionOutcome.Stopped(attempt.stopReason());
    }
    Action action = request.action();
    ActionRunner runner = action instanceof Action.Program ? programs
        : action instanceof Action.Builtin ? builtins
        : java;
    return runner.run(request, attempt);
  }

  /**
   * Tells the supervisor goodbye, stops the threads that feed and drain programs and closes the
   * plugin jars.
   */
  @Override
  public void close() throws IOException {
    if (supervisor != null) {
      supervisor.close();
    }
    io.shutdown();
    plugins.close();
  }

  /**
   * Three short-lived threads per running program (stdin, stdout, stderr), reused between
   * attempts; daemons, so a program's leftover child holding a pipe never keeps fsm alive.
   */
  private static ExecutorService ioThreads() {
    AtomicInteger count = new AtomicInteger();
    return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
        new SynchronousQueue<>(), r -> {
          Thread t = new Thread(r, "fsm-action-io-" + count.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }
}
