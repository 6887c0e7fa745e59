package dev.fsm.action;

import dev.fsm.action.supervisor.Supervisor;
import dev.fsm.model.Action;
import dev.fsm.model.Machine;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs {@code run: <argv>} actions by the program protocol: no shell, stdin gets the task as one
 * JSON document, stdout and stderr are drained at once into capped tails, and the result is read
 * from the last stdout line or the exit status. Thread-safe.
 *
 * <p>The program runs through {@code setsid}, as the leader of a new session and process group,
 * so a stop reaches every process it started, even orphans of a double fork; a
 * {@code ProcessHandle.descendants()} walk alone misses those. Orphans that left the group too
 * are found by the {@value #MARK} variable they inherit. With the scan of the group for
 * leftovers after the program exits, it costs 2-4 ms per attempt (measured on 2 cores). Under a
 * runner every program also carries the runner's {@link Supervisor} mark, so the supervisor stops
 * it when the runner dies or its lease deadline passes.
 *
 * <p>An attempt is {@link ActionOutcome.Stopped} when the stop came before the program exited;
 * a program that already finished keeps its result. Processes a finished program left running
 * are stopped as a stopped program's are: the attempt is over, and so is its work.
 */
final class ProgramRunner implements ActionRunner {

  /** How long output may still arrive after the program exited, before children it left
   * behind are stopped. */
  static final long LINGER_MILLIS = 200;

  /** How long to wait for the pipes to close after the last process was killed. */
  private static final long AFTER_KILL_MILLIS = 1000;

  static final Path SETSID = Path.of("/usr/bin/setsid");

  /** The variable that marks every process of one attempt with a value of its own. */
  static final String MARK = "FSM_ATTEMPT_MARK";

  private static final SecureRandom MARKS = new SecureRandom();

  private final ActionOptions options;
  private final Executor io;
  private final boolean useSetsid;
  private final Supervisor supervisor;

  ProgramRunner(ActionOptions options, Executor io) {
    this(options, io, Files.isExecutable(SETSID), null);
  }

  ProgramRunner(ActionOptions options, Executor io, boolean useSetsid) {
    this(options, io, useSetsid, null);
  }

  /** @param supervisor the runner's program supervisor, or null to run programs without one */
  ProgramRunner(ActionOptions options, Executor io, boolean useSetsid, Supervisor supervisor) {
    this.options = options;
    this.io = io;
    this.useSetsid = useSetsid;
    this.supervisor = supervisor;
  }

  @Override
  public ActionOutcome run(ActionRequest request, Attempt attempt) {
    Action.Program program = (Action.Program) request.action();
    Machine machine = request.machine();
    Process process;
    // Every process of the attempt inherits it, so those that leave its group and session
    // (setsid after a double fork) are still found.
    String mark = Long.toHexString(MARKS.nextLong());
    try {
      process = start(program, machine, request, mark);
    } catch (ActionException e) {
      return new ActionOutcome.Error(e.getMessage());
    }
    TailBuffer out = new TailBuffer(options.outputCap());
    TailBuffer err = new TailBuffer(options.outputCap());
    CompletableFuture<Void> drained = CompletableFuture.allOf(
        drain(process.getInputStream(), out), drain(process.getErrorStream(), err));
    byte[] input = ProgramInput.stdin(request);
    io.execute(() -> feed(process.getOutputStream(), input));

    ProcessTree tree = new ProcessTree(process, useSetsid, MARK + "=" + mark);
    ProgramLedger ledger = useSetsid && options.ledger() != null
        ? ProgramLedger.in(options.ledger()) : null;
    if (ledger != null) {
      ledger.started(process);
    }
    try {
      return await(process, tree, out, err, drained, attempt);
    } finally {
      if (ledger != null) {
        ledger.ended(process);
      }
    }
  }

  private ActionOutcome await(Process process, ProcessTree tree, TailBuffer out, TailBuffer err,
      CompletableFuture<Void> drained, Attempt attempt) {
    CompletableFuture<Attempt.StopReason> stop = new CompletableFuture<>();
    attempt.onStop(stop::complete);
    // A hurried stop skips the grace between SIGTERM and SIGKILL that terminate() waits out.
    attempt.onHurry(() -> tree.signal(true));
    try {
      CompletableFuture.anyOf(process.onExit(), stop).get();
      if (stop.isDone()) {
        terminate(tree);
        await(drained, AFTER_KILL_MILLIS);
        return new ActionOutcome.Stopped(stop.join());
      }
      // An attempt's processes end with it: children left behind are stopped, whether they
      // hold stdout open (which must not hang the attempt) or not. Pipe EOF cannot tell which:
      // the JDK closes a pipe itself when the program exits between two reads.
      await(CompletableFuture.anyOf(drained, stop), LINGER_MILLIS);
      if (!tree.members().isEmpty()) {
        terminate(tree);
      }
      // A process that escaped the group and the tree may hold the pipes still; then the
      // output read so far is the output.
      await(drained, AFTER_KILL_MILLIS);
    } catch (InterruptedException e) {
      tree.signal(true);
      Thread.currentThread().interrupt();
      Attempt.StopReason reason = attempt.stopReason();
      return new ActionOutcome.Stopped(reason == null ? Attempt.StopReason.SHUTDOWN : reason);
    } catch (ExecutionException e) {
      throw new IllegalStateException("waiting for a program cannot fail", e);
    }
    return ProgramResult.of(out.text(), out.truncated(), err.text(), process.exitValue());
  }

  private Process start(Action.Program program, Machine machine, ActionRequest request,
      String mark) throws ActionException {
    Path executable = ProgramPath.resolve(machine.folder(), program.program());
    List<String> command = new ArrayList<>(program.argv().size() + 1);
    if (useSetsid) {
      command.add(SETSID.toString());
    }
    command.add(executable.toString());
    command.addAll(program.argv().subList(1, program.argv().size()));
    ProcessBuilder builder = new ProcessBuilder(command).directory(machine.folder().toFile());
    builder.environment().putAll(ProgramInput.environment(request));
    builder.environment().put(MARK, mark);
    if (supervisor != null) {
      // Marked before it exists, so the supervisor can find it (and its strays) at any time.
      supervisor.ensure();
      builder.environment().put(Supervisor.VARIABLE, supervisor.id());
    }
    try {
      return builder.start();
    } catch (IOException e) {
      throw new ActionException("cannot start program `" + program.program() + "`: "
          + e.getMessage());
    }
  }

  /** SIGTERM to the program and all it started; SIGKILL to what is left after the grace. */
  private void terminate(ProcessTree tree) throws InterruptedException {
    tree.signal(false);
    if (!tree.awaitGone(System.nanoTime() + options.grace().toNanos())) {
      tree.signal(true);
      tree.awaitGone(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(AFTER_KILL_MILLIS));
    }
  }

  private CompletableFuture<Void> drain(InputStream stream, TailBuffer into) {
    return CompletableFuture.runAsync(() -> {
      byte[] buffer = new byte[8192];
      try (stream) {
        for (int n; (n = stream.read(buffer)) >= 0; ) {
          into.write(buffer, 0, n);
        }
      } catch (IOException e) {
        // The stream was closed under us; what was read so far is the output.
      }
    }, io);
  }

  private static void feed(OutputStream stdin, byte[] input) {
    try (stdin) {
      stdin.write(input);
    } catch (IOException e) {
      // A program need not read its stdin; a broken pipe is no error.
    }
  }

  private static boolean await(CompletableFuture<?> future, long millis)
      throws InterruptedException, ExecutionException {
    try {
      future.get(millis, TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    }
  }
}
