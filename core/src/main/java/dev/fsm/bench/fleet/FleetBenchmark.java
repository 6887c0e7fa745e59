package dev.fsm.bench.fleet;

import dev.fsm.FsmException;
import dev.fsm.bench.runner.RunnerBenchmark;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.ServerActivity;
import dev.fsm.store.Store;
import dev.fsm.store.StoreOpenOptions;
import dev.fsm.store.StorePurpose;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.worker.Worker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code fsm bench --runners R}: R {@code fsm run} processes of this fsm on one shared store,
 * serving a chain of no-op states; the tasks are enqueued once every runner serves the store,
 * and the figures come from the tasks' histories afterwards, plus the server's commit and log
 * counters read before the enqueue and after the runners stopped.
 */
public final class FleetBenchmark {

  /** The bench's machine; the runners claim only its tasks. */
  static final String MACHINE = "bench";
  private static final int CREATE_CHUNK = 1000;
  private static final int PAGE = 1000;
  /** How often completion is polled; the figures come from the histories, not from this. */
  private static final long POLL_MILLIS = 250;
  private static final long STALL_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final FleetBenchOptions options;
  private final Consumer<String> progress;

  private FleetBenchmark(FleetBenchOptions options, Consumer<String> progress) {
    this.options = options;
    this.progress = progress;
  }

  /** Runs the fleet once; {@code progress} hears what is being done. */
  public static FleetBenchReport run(FleetBenchOptions options, Consumer<String> progress)
      throws IOException {
    return new FleetBenchmark(options, progress).run();
  }

  private FleetBenchReport run() throws IOException {
    Path folder = Files.createTempDirectory(options.parent(), ".fsm-bench-");
    List<RunnerProcess> runners = new CopyOnWriteArrayList<>();
    // A bench stopped by a signal skips its finally blocks: its runners would run on forever.
    Thread onExit = new Thread(() -> {
      RunnerProcess.stopAll(runners);
      try {
        deleteTree(folder);
      } catch (IOException e) {
        // The JVM is exiting; a temporary folder left behind is all it costs.
      }
    }, "fsm-bench-exit");
    Runtime.getRuntime().addShutdownHook(onExit);
    try {
      Path machines = Files.createDirectories(folder.resolve("machines"));
      Path file = machines.resolve(MACHINE + ".yaml");
      String yaml = RunnerBenchmark.chainYaml(options.states());
      Files.writeString(file, yaml);
      MachineSource chain = new MachineSource(MACHINE, file.toAbsolutePath(), yaml);
      Store store = options.kind().open(options.location(), StorePurpose.RUN,
          StoreOpenOptions.of("fsm bench").create(true));
      try (Worker worker = Worker.builder(store).machines(machines).operator("user:bench")
          .build()) {
        refuseTasks(store);
        return measure(worker.operations(), store, chain, machines, runners);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FsmException("bench interrupted");
    } finally {
      RunnerProcess.stopAll(runners);
      deleteTree(folder);
      try {
        Runtime.getRuntime().removeShutdownHook(onExit);
      } catch (IllegalStateException e) {
        // Already exiting: the hook runs, and finds nothing left to do.
      }
    }
  }

  private FleetBenchReport measure(StoreOperations operations, Store store, MachineSource chain,
      Path machines, List<RunnerProcess> runners) throws InterruptedException {
    progress.accept(String.format("starting %d runner%s of %d worker%s", options.runners(),
        options.runners() == 1 ? "" : "s", options.workers(), options.workers() == 1 ? "" : "s"));
    for (int i = 0; i < options.runners(); i++) {
      runners.add(RunnerProcess.start(runCommand(machines), options.store()));
    }
    for (RunnerProcess r : runners) {
      r.awaitReady();
    }
    Optional<ServerActivity> before = options.kind().activity(options.location());
    progress.accept(String.format("%,d tasks x %d states", options.tasks(), options.states()));
    for (int done = 0; done < options.tasks(); done += CREATE_CHUNK) {
      int n = Math.min(CREATE_CHUNK, options.tasks() - done);
      List<NewTask> chunk = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        chunk.add(new NewTask(null, "{\"n\":" + (done + i) + "}", null));
      }
      operations.start(chain, chunk);
    }
    awaitCompleted(store, runners);
    for (RunnerProcess r : runners) {
      r.stop();
    }
    for (RunnerProcess r : runners) {
      r.awaitExit();
    }
    Optional<ServerActivity> after = options.kind().activity(options.location());
    progress.accept("reading the histories");
    FleetFigures figures = figures(store);
    List<FleetBenchReport.RunnerShare> shares = runners.stream()
        .map(r -> new FleetBenchReport.RunnerShare(r.pid(), figures.transitionsOf(r.pid()),
            figures.perSecond(figures.transitionsOf(r.pid()))))
        .toList();
    Optional<FleetFigures.Cost> cost = before.isPresent() && after.isPresent()
        ? figures.cost(before.get(), after.get()) : Optional.empty();
    return new FleetBenchReport(options.location().text(), options.runners(),
        options.workers(), options.tasks(), options.states(), options.lease(),
        figures.transitions(), figures.seconds(), shares, cost);
  }

  private List<String> runCommand(Path machines) {
    List<String> command = new ArrayList<>(options.fsm());
    command.addAll(List.of("run", "--machines", machines.toString(),
        "--machine", MACHINE, "--workers", Integer.toString(options.workers()), "--lease",
        options.lease().toMillis() + "ms", "--grace", Math.max(1, options.lease().toMillis() / 2)
            + "ms"));
    return command;
  }

  /** A store that already holds tasks would mix them into the figures, or run them. */
  private void refuseTasks(Store store) {
    long held = store.counts().stream().mapToLong(TaskCount::count).sum();
    if (held > 0) {
      throw new FsmException("--store " + options.location().text() + " already holds "
          + held + " task(s); give the bench a store of its own (on PostgreSQL, a new"
          + " ?schema=)");
    }
  }

  private void awaitCompleted(Store store, List<RunnerProcess> runners)
      throws InterruptedException {
    // Progress is any change in the counts: a task completes only after all its states, which
    // under load can take longer than the stall limit for the first one.
    List<TaskCount> seen = List.of();
    long progressedAt = System.nanoTime();
    while (true) {
      List<TaskCount> counts = store.counts().stream()
          .filter(c -> c.machine().equals(MACHINE)).toList();
      long completed = counts.stream().filter(c -> c.status() == TaskStatus.COMPLETED)
          .mapToLong(TaskCount::count).sum();
      if (completed >= options.tasks()) {
        return;
      }
      if (!counts.equals(seen)) {
        seen = counts;
        progressedAt = System.nanoTime();
      } else if (System.nanoTime() - progressedAt > STALL_NANOS) {
        throw new FsmException("the bench's tasks made no progress for a minute (" + completed
            + " of " + options.tasks() + " completed)");
      }
      for (RunnerProcess r : runners) {
        r.checkAlive();
      }
      TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
    }
  }

  private FleetFigures figures(Store store) {
    FleetFigures figures = new FleetFigures();
    TaskQuery query = TaskQuery.all(PAGE);
    long tasks = 0;
    while (true) {
      List<Task> page = store.list(query);
      for (Task t : page) {
        if (t.status() != TaskStatus.COMPLETED) {
          throw new FsmException("bench task " + t.id() + " ended " + t.status().name()
              .toLowerCase() + " in " + t.state() + ", not completed");
        }
        store.history(t.id()).forEach(figures::add);
      }
      tasks += page.size();
      if (page.size() < PAGE) {
        break;
      }
      query = query.after(page.get(page.size() - 1).id());
    }
    if (tasks != options.tasks()) {
      throw new FsmException("after the bench, the store holds " + tasks + " tasks, not the "
          + options.tasks() + " enqueued");
    }
    return figures;
  }

  private static void deleteTree(Path folder) throws IOException {
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
