package dev.fsm.cli.verb.run;

import dev.fsm.FsmException;
import dev.fsm.access.StoreAccess;
import dev.fsm.action.ActionOptions;
import dev.fsm.action.Actions;
import dev.fsm.action.ProgramLedger;
import dev.fsm.cli.common.BuildVersion;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.ProgressLine;
import dev.fsm.cli.terminal.Style;
import dev.fsm.engine.RunListener;
import dev.fsm.engine.Runner;
import dev.fsm.engine.RunnerOptions;
import dev.fsm.model.Durations;
import dev.fsm.store.Store;
import dev.fsm.store.StoreLocation;
import dev.fsm.store.StorePurpose;
import dev.fsm.worker.Worker;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fsm run}: the worker loop. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    header = "Run tasks: claim due tasks, run their actions, record every transition.",
    description = {
      "Claims runnable tasks whose time has come, oldest due first, runs their actions on N"
          + " workers and durably records each outcome. While it runs, other fsm commands on"
          + " the same store reach it through a control socket beside the store.",
      "Ctrl-C or SIGTERM once: stop claiming, let running actions finish (releasing them after"
          + " the grace period), exit 0. Twice: stop at once.",
      "With --output json, stdout carries one JSON object a line and nothing else: a"
          + " `transition` line for each transition recorded (task, machine, from, event, to,"
          + " status, duration_ms, attempt, error...) and a line for each runner event"
          + " (started, stopping, stopped, breaker_opened, breaker_closed, store_unavailable,"
          + " store_available, lease_problem, problem, discarded, purged). Every line has"
          + " `type` and `time`; the keys are stable (docs/run-events.md). Messages for people"
          + " stay on stderr."
    },
    footer = {
      "fsm run --workers 8 --lease 30s --grace 20s --machine order",
      "fsm run --until-idle",
      "fsm run --metrics :9464 --output json > events.jsonl"
    })
public final class Run implements Callable<Integer> {

  /** The folder in the store that records running programs (see ProgramLedger). */
  private static final String PROGRAMS = "programs";

  /** The shortest lease: renewals every third of it must outrun a busy machine's pauses. */
  private static final Duration MIN_LEASE = Duration.ofMillis(600);

  @Option(names = "--workers", paramLabel = "N", defaultValue = "4",
      description = "Actions run at once (default: ${DEFAULT-VALUE}).")
  int workers;

  @ArgGroup(exclusive = true)
  Until until;

  @Option(names = "--plugins", paramLabel = "DIR",
      description = "Folder of jars holding the classes of `java:` actions.")
  Path plugins;

  @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "10s",
      description = "How long a stop lets running actions finish, and a stopped program has"
          + " between SIGTERM and SIGKILL (default: ${DEFAULT-VALUE}).")
  String grace;

  @Option(names = "--lease", paramLabel = "DURATION", defaultValue = "30s",
      description = "How long a claim holds a task without renewal; the runner renews it while"
          + " the action runs, and after a crash another runner takes the task when it ends"
          + " (default: ${DEFAULT-VALUE}; longer than --grace by at least a tenth of it, and"
          + " at least 200ms).")
  String lease;

  @Option(names = "--metrics", paramLabel = "HOST:PORT",
      description = "Serve Prometheus metrics at http://HOST:PORT/metrics: transitions,"
          + " attempts, errors, timeouts, durations, tasks by status, breakers, leases, store"
          + " commit latency. :PORT listens on every interface; port 0 picks a free one (the"
          + " banner says which).")
  String metrics;

  @Option(names = "--machine", paramLabel = "M",
      description = "Claim only this machine's tasks (repeatable): for hosts that have only"
          + " some machines' programs.")
  List<String> onlyMachines = new ArrayList<>();

  @Spec CommandSpec spec;

  static final class Until {
    @Option(names = "--until-idle", required = true,
        description = "Exit once nothing more can happen without outside input.")
    boolean idle;

    @Option(names = "--once", required = true,
        description = "Run one pass over what is due now, then exit.")
    boolean once;
  }

  @Override
  public Integer call() throws IOException {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (workers < 1 || workers > 1024) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "--workers must be between 1 and 1024, not " + workers);
    }
    Duration graceTime = duration("--grace", grace);
    Duration leaseTime = duration("--lease", lease);
    if (leaseTime.compareTo(MIN_LEASE) < 0) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "--lease " + lease + " is too short: give at least " + MIN_LEASE.toMillis() + "ms,"
              + " so renewals (every third of it) are not lost to a busy machine");
    }
    Duration margin = RunnerOptions.leaseMargin(leaseTime);
    if (graceTime.plus(margin).compareTo(leaseTime) >= 0) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "--grace " + grace + " must be shorter than --lease " + lease + " by at least "
              + margin.toMillis() + "ms: a stopping action must end before its lease does, or"
              + " another runner could start it again");
    }
    if (plugins != null && !Files.isDirectory(plugins)) {
      throw new FsmException("--plugins " + plugins + " is not a folder; give the folder that"
          + " holds the jars of your java: actions");
    }
    RunnerOptions.Mode mode = until == null ? RunnerOptions.Mode.FOREVER
        : until.idle ? RunnerOptions.Mode.UNTIL_IDLE : RunnerOptions.Mode.ONCE;
    // Before the store: a port in use fails the run before it claims anything.
    try (MetricsEndpoint served = MetricsEndpoint.start(metrics)) {
      return run(global, out, err, mode, leaseTime, graceTime, served);
    }
  }

  private int run(GlobalOptions global, PrintWriter out, PrintWriter err,
      RunnerOptions.Mode mode, Duration leaseTime, Duration graceTime, MetricsEndpoint served)
      throws IOException {
    StoreAccess access = StoreAccess.standard();
    StoreAccess.Located at = access.locate(global.store(), StorePurpose.RUN, "fsm run", true);
    String where = at.location().text();
    boolean fresh = !at.exists();
    Path ledger = at.location() instanceof StoreLocation.Folder folder
        ? folder.path().resolve(PROGRAMS) : null;
    String owner = "runner:" + ProcessHandle.current().pid() + "@" + host();
    Store store = access.store(at, StorePurpose.RUN, "fsm run", TaskAccess.notice(global));
    if (fresh) {
      // A mistyped --store must not pass unnoticed.
      err.println("fsm run: no store was at " + where + "; created an empty one (start tasks"
          + " with `fsm start MACHINE --store " + where + "`)");
    }
    OnlyMachines.check(onlyMachines, store, global.machines(), err,
        Style.forTerminal(global.colorAllowed()));
    // With JSON lines stdout carries nothing else: -v's text lines stay off.
    RunEvents events = global.json() ? new RunEvents(out, store.clock(), store::versions) : null;
    RunListener listener = RunListener.both(
        new RunLog(global.json() ? new PrintWriter(Writer.nullWriter()) : out, err,
            global.verbose()),
        RunListener.both(events == null ? RunListener.NONE : events, served.listener()));
    Worker.Builder builder = Worker.builder(store)
        .machines(global.machines())
        .actions(ActionOptions.DEFAULTS.withGrace(graceTime).withPlugins(plugins))
        .runner(RunnerOptions.of(workers, mode, owner).withLease(leaseTime, graceTime)
                .onlyMachines(Set.copyOf(onlyMachines))
                .claimingAhead(RunnerOptions.AHEAD_PER_WORKER * workers),
            listener)
        .announce(host());
    if (ledger != null) {
      builder.programLedger(ledger);
    }
    if (at.hasOwner()) {
      builder.serve(at.kind().ownership(), at.socketFolder(), "runner");
    }
    boolean live = ProgressLine.stderrIsTerminal() && !global.verbose();
    try (Worker worker = builder.build();
        MetricsEndpoint.Watching watching = served.watch(worker.runner().orElseThrow(),
            worker.operations(), listener)) {
      if (worker.leftoversStopped() > 0) {
        err.println("fsm run: stopped " + worker.leftoversStopped() + " program(s) that a runner"
            + " killed earlier left running");
      }
      Runner runner = worker.runner().orElseThrow();
      StopOnSignals.install(runner, err, events);
      err.println("fsm run: " + workers + " worker" + (workers == 1 ? "" : "s") + " on "
          + where + " (pid " + ProcessHandle.current().pid() + ")"
          + served.url().map(u -> "; metrics at " + u).orElse("")
          + (mode == RunnerOptions.Mode.FOREVER ? "; Ctrl-C to stop" : ""));
      if (events != null) {
        events.started(new RunStart(owner, host(), where, at.kind().name(), workers,
            mode.name().toLowerCase(Locale.ROOT).replace('_', '-'), List.copyOf(onlyMachines),
            leaseTime, graceTime, served.url().orElse(null), BuildVersion.get()));
      }
      StaleMachineFiles.warn(store, global.machines(), err);
      long started = System.nanoTime();
      if (live) {
        try (RunLine line = new RunLine(err, runner)) {
          runner.run();
        }
      } else {
        runner.run();
      }
      long took = System.nanoTime() - started;
      err.println(String.format(Locale.ROOT,
          "fsm run: done: %,d transitions, %,d errors in %.1f s", runner.counters().transitions(),
          runner.counters().errors(), took / 1e9));
      if (events != null) {
        events.stopped(runner.counters().transitions(), runner.counters().errors(),
            Duration.ofNanos(took));
      }
    }
    return 0;
  }

  private Duration duration(String option, String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          option + " " + text + ": " + e.getMessage());
    }
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
