package dev.fsm.action;

import dev.fsm.model.Action;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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

  public Actions(ActionOptions options) {
    this.io = ioThreads();
    this.plugins = new PluginLoader(options.plugins());
    this.programs = new ProgramRunner(options, io);
    this.java = new JavaRunner(plugins);
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

  /** Stops the threads that feed and drain programs and closes the plugin jars. */
  @Override
  public void close() throws IOException {
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
