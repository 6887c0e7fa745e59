package dev.fsm.bench.runner;

import dev.fsm.FsmException;
import dev.fsm.action.ActionOptions;
import dev.fsm.action.ActionRequest;
import dev.fsm.action.Attempt;
import dev.fsm.bench.Latency;
import dev.fsm.bench.LatencyRecorder;
import dev.fsm.control.SocketControl;
import dev.fsm.engine.Runner;
import dev.fsm.engine.RunnerOptions;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.StoreKind;
import dev.fsm.store.StoreLocation;
import dev.fsm.store.StoreOpenOptions;
import dev.fsm.store.StorePurpose;
import dev.fsm.store.embedded.EmbeddedStoreKind;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import dev.fsm.worker.Worker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code fsm bench}: the runner on a fresh embedded store with a synthetic machine (a chain of
 * {@code builtin:noop} states). Throughput per worker count, due-to-recorded latency at half the
 * best throughput, and how soon a command sent over the control socket reaches a running action.
 */
public final class RunnerBenchmark {

  private static final int CREATE_CHUNK = 1000;
  private static final Clock CLOCK = Clock.systemUTC();

  private final RunnerBenchOptions options;
  private final Consumer<String> progress;

  private RunnerBenchmark(RunnerBenchOptions options, Consumer<String> progress) {
    this.options = options;
    this.progress = progress;
  }

  /** Runs every measure; {@code progress} hears what is being measured. */
  public static RunnerBenchReport run(RunnerBenchOptions options, Consumer<String> progress)
      throws IOException {
    return new RunnerBenchmark(options, progress).run();
  }

  private RunnerBenchReport run() throws IOException {
    List<RunnerBenchReport.Run> runs = new ArrayList<>();
    for (int w : options.workers()) {
      progress.accept(String.format("%,d tasks x %d states on %d worker%s", options.tasks(),
          options.states(), w, w == 1 ? "" : "s"));
      runs.add(inFreshStore(folder -> throughput(folder, w)));
    }
    RunnerBenchReport.Run best = runs.stream()
        .max(Comparator.comparingDouble(RunnerBenchReport.Run::perSecond)).orElseThrow();
    double rate = best.perSecond() / 2;
    progress.accept(String.format("half load: %,.0f transitions/s on %d workers", rate,
        best.workers()));
    Latency halfLoad = inFreshStore(folder -> halfLoad(folder, best.workers(), rate));
    progress.accept("send to a running action, " + options.sends() + " times");
    Latency send = inFreshStore(this::sendToAction);
    return new RunnerBenchReport(runs, halfLoad, rate, best.workers(), send);
  }

  private RunnerBenchReport.Run throughput(Path folder, int workers) throws Exception {
    try (Bench b = new Bench(folder, workers, RunnerOptions.Mode.UNTIL_IDLE, null, false)) {
      MachineSource chain = b.machine("bench", chainYaml(options.states()));
      for (int done = 0; done < options.tasks(); done += CREATE_CHUNK) {
        int n = Math.min(CREATE_CHUNK, options.tasks() - done);
        List<NewTask> chunk = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          chunk.add(new NewTask(null, "{\"n\":" + (done + i) + "}", null));
        }
        b.tracker.started(b.control.start(chain, chunk));
      }
      long start = System.nanoTime();
      b.runner.run();
      double seconds = (System.nanoTime() - start) / 1e9;
      b.checkNoProblems();
      return new RunnerBenchReport.Run(workers, options.tasks(), options.states(),
          b.tracker.recorded(), seconds, b.tracker.latency());
    }
  }

  private Latency halfLoad(Path folder, int workers, double transitionsPerSecond)
      throws Exception {
    try (Bench b = new Bench(folder, workers, RunnerOptions.Mode.FOREVER, null, false)) {
      MachineSource chain = b.machine("bench", chainYaml(options.states()));
      Thread runner = new Thread(b.runner::run, "fsm-bench-runner");
      runner.start();
      double tasksPerSecond = transitionsPerSecond / options.states();
      long start = System.nanoTime();
      long end = start + (long) (options.latencySeconds() * 1e9);
      long started = 0;
      while (System.nanoTime() < end) {
        long due = (long) ((System.nanoTime() - start) / 1e9 * tasksPerSecond);
        List<NewTask> batch = new ArrayList<>();
        for (; started < due; started++) {
          batch.add(new NewTask(null, "{}", null));
        }
        if (!batch.isEmpty()) {
          b.tracker.started(b.control.start(chain, batch));
        }
        TimeUnit.MILLISECONDS.sleep(5);
      }
      long expected = started * options.states();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (b.tracker.recorded() < expected && System.nanoTime() < deadline) {
        TimeUnit.MILLISECONDS.sleep(10);
      }
      b.runner.stop();
      runner.join();
      b.checkNoProblems();
      if (b.tracker.recorded() < expected) {
        throw new FsmException("the half-load run recorded " + b.tracker.recorded() + " of "
            + expected + " transitions within a minute");
      }
      return b.tracker.latency();
    }
  }

  private Latency sendToAction(Path folder) throws Exception {
    BlockingQueue<Long> heard = new ArrayBlockingQueue<>(16);
    CountDownLatch running = new CountDownLatch(1);
    BiConsumer<ActionRequest, Attempt> hook = (request, attempt) -> {
      attempt.onCommand(c -> heard.offer(System.nanoTime()));
      running.countDown();
    };
    try (Bench b = new Bench(folder, 1, RunnerOptions.Mode.FOREVER, hook, true)) {
      MachineSource listen = b.machine("listen", """
          machine: listen
          states:
            hold: {run: builtin:sleep 1h, on: {ok: done}}
            done: {final: completed}
          """);
      Thread runner = new Thread(b.runner::run, "fsm-bench-runner");
      runner.start();
      try (SocketControl client = SocketControl.connect(b.storeFolder).orElseThrow(
          () -> new FsmException("the bench's control socket did not answer"))) {
        Task task = client.start(listen, List.of(new NewTask(null, null, null))).get(0);
        if (!running.await(30, TimeUnit.SECONDS)) {
          throw new FsmException("the bench's listening action did not start");
        }
        LatencyRecorder latencies = new LatencyRecorder();
        for (int i = 0; i < options.sends(); i++) {
          long sent = System.nanoTime();
          client.send(task.id(), Command.CHECKPOINT, null, "bench");
          Long at = heard.poll(10, TimeUnit.SECONDS);
          if (at == null) {
            throw new FsmException("a checkpoint sent to a running action was not heard");
          }
          latencies.record(at - sent);
        }
        client.send(task.id(), Command.KILL, null, "bench done");
        b.runner.stop();
        runner.join();
        return latencies.summary();
      }
    }
  }

  /** One store, runner and in-process control in a folder, assembled as {@code fsm run} does. */
  private final class Bench implements AutoCloseable {
    final Path storeFolder;
    final Path machines;
    final DueTracker tracker = new DueTracker();
    final Worker worker;
    final Runner runner;
    final StoreOperations control;

    /**
     * @param before told of each action before it runs, or null
     * @param serve whether the control socket serves the store, as a runner's does
     */
    Bench(Path folder, int workers, RunnerOptions.Mode mode,
        BiConsumer<ActionRequest, Attempt> before, boolean serve)
        throws IOException {
      storeFolder = folder.resolve("store");
      machines = Files.createDirectories(folder.resolve("machines"));
      StoreKind kind = EmbeddedStoreKind.INSTANCE;
      Worker.Builder builder = Worker.builder(kind.open(new StoreLocation.Folder(storeFolder),
              StorePurpose.RUN, StoreOpenOptions.of("fsm bench").create(true)))
          .machines(machines)
          .actions(ActionOptions.DEFAULTS)
          .runner(RunnerOptions.of(workers, mode,
              "runner:" + ProcessHandle.current().pid() + "@bench")
              .claimingAhead(RunnerOptions.AHEAD_PER_WORKER * workers), tracker)
          .clock(CLOCK)
          .operator("user:bench");
      if (before != null) {
        builder.actionsAround(actions -> (request, attempt) -> {
          before.accept(request, attempt);
          return actions.run(request, attempt);
        });
      }
      if (serve) {
        builder.serve(kind.ownership(), storeFolder, "fsm bench");
      }
      worker = builder.build();
      runner = worker.runner().orElseThrow();
      control = worker.operations();
    }

    MachineSource machine(String name, String yaml) throws IOException {
      Path file = machines.resolve(name + ".yaml");
      Files.writeString(file, yaml);
      return new MachineSource(name, file.toAbsolutePath(), yaml);
    }

    void checkNoProblems() {
      if (tracker.lastProblem() != null) {
        throw new FsmException("the runner reported " + tracker.lastProblem());
      }
    }

    @Override
    public void close() {
      worker.close();
    }
  }

  /** A machine of {@code states} no-op action states in a row, then a final state. */
  public static String chainYaml(int states) {
    StringBuilder yaml = new StringBuilder("machine: bench\nstates:\n");
    for (int i = 1; i <= states; i++) {
      String next = i == states ? "done" : "s" + (i + 1);
      yaml.append("  s").append(i).append(": {run: builtin:noop, on: {ok: ").append(next)
          .append("}}\n");
    }
    return yaml.append("  done: {final: completed}\n").toString();
  }

  private interface InFolder<T> {
    T run(Path folder) throws Exception;
  }

  private <T> T inFreshStore(InFolder<T> body) throws IOException {
    Path folder = Files.createTempDirectory(options.parent(), ".fsm-bench-");
    try {
      return body.run(folder);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FsmException("the bench was interrupted");
    } catch (Exception e) {
      throw new FsmException("the bench failed: " + e, e);
    } finally {
      deleteTree(folder);
    }
  }

  private static void deleteTree(Path folder) throws IOException {
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
