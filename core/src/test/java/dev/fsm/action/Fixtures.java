package dev.fsm.action;

import static org.assertj.core.api.Assertions.fail;

import dev.fsm.action.supervisor.Proc;
import dev.fsm.model.Action;
import dev.fsm.model.BuiltinAction;
import dev.fsm.model.Machine;
import dev.fsm.model.UpgradeStrategy;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/** Machines, tasks, scripts and waits shared by the action tests. */
final class Fixtures {

  static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

  private Fixtures() {}

  static Machine machine(Path folder) {
    return new Machine("order", "", "pay", UpgradeStrategy.CONTINUE, Map.of(),
        folder.resolve("order.yaml"));
  }

  /** The runner that fixtures' attempts run on, as history names runners. */
  static final String RUNNER = "runner:4242@host/w1";

  static Task task(String context) {
    return new Task("t-42", "order", "v7", "pay", TaskStatus.RUNNABLE, context, 3, List.of(), T0,
        T0, T0, T0, null);
  }

  static ActionRequest program(Path folder, String... argv) {
    return new ActionRequest(task("{\"amount\":12}"), machine(folder),
        new Action.Program(Arrays.asList(argv), String.join(" ", argv)), 2, RUNNER);
  }

  static ActionRequest builtin(Path folder, BuiltinAction builtin, String... args) {
    return new ActionRequest(task("{}"), machine(folder),
        new Action.Builtin(builtin, List.of(args), "builtin:" + builtin.word()), 2, RUNNER);
  }

  static ActionRequest java(Path folder, String className) {
    return new ActionRequest(task("{\"amount\":12}"), machine(folder),
        new Action.JavaClass(className, "java:" + className), 2, RUNNER);
  }

  /** Writes an executable {@code /bin/sh} script. */
  static Path script(Path folder, String name, String body) throws IOException {
    Path file = folder.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  /** Runs the action on a thread of its own, as a worker would. */
  static CompletableFuture<ActionOutcome> start(ActionRunner runner, ActionRequest request,
      Attempt attempt) {
    // Not the common pool: on a 2-core machine it runs one task at a time.
    return CompletableFuture.supplyAsync(() -> runner.run(request, attempt),
        task -> new Thread(task, "test-worker").start());
  }

  /** Waits for a condition, failing after {@code limit}. */
  static void await(Duration limit, String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out after " + limit + " waiting for " + what);
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting for " + what);
      }
    }
  }

  /** Waits for a file with content, such as a pid a script wrote. */
  static String awaitFile(Path file) {
    await(Duration.ofSeconds(10), file.toString(), () -> {
      try {
        return Files.exists(file) && !Files.readString(file).isBlank();
      } catch (IOException e) {
        return false;
      }
    });
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** True while the process runs; one exiting, or a zombie nobody reaped, has stopped. */
  static boolean running(long pid) {
    return !Proc.ended(Proc.statFields(Proc.entry(pid)));
  }
}
