package dev.fsm.action.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The program supervisor as a real process, with real marked and unmarked processes: it stops
 * the marked ones when its runner's pipe closes without goodbye or a deadline passes, and never
 * anything else.
 */
@Isolated("asserts on time")
class SupervisorTest {

  private static final Duration GRACE = Duration.ofMillis(500);

  /** Grace plus a second, as the issue asks; the sweep itself takes a few milliseconds. */
  private static final Duration STOPPED_WITHIN = GRACE.plusSeconds(1);

  @TempDir Path dir;

  private final String id = "test-" + System.nanoTime();
  private final List<Process> started = new ArrayList<>();
  /** Handles hold the start time, so a pid reused since is never killed by the clean-up. */
  private final List<ProcessHandle> strays = new ArrayList<>();

  @BeforeEach
  void linuxOnly() {
    assumeTrue(Proc.PRESENT && Files.isExecutable(Path.of("/usr/bin/setsid")),
        "the supervisor needs /proc and setsid");
  }

  @AfterEach
  void cleanUp() {
    started.forEach(Process::destroyForcibly);
    strays.forEach(ProcessHandle::destroyForcibly);
  }

  @Test
  void aPipeClosedWithoutGoodbyeStopsTheMarkedProcessesWithinTheGrace() throws Exception {
    Process supervisor = supervisor();
    Process child = sleep("FSM_RUNNER_MARK=" + id);

    long closed = System.nanoTime();
    supervisor.getOutputStream().close();
    await("the marked child to be stopped", STOPPED_WITHIN, () -> !child.isAlive());
    assertThat(Duration.ofNanos(System.nanoTime() - closed)).isLessThan(STOPPED_WITHIN);
    assertThat(supervisor.waitFor(10, TimeUnit.SECONDS)).as("the supervisor exits").isTrue();
    assertThat(supervisor.exitValue()).isZero();
    assertThat(errors(supervisor)).contains("fsm supervisor: runner pid 4242 is gone: stopped 1"
        + " process(es) of its actions that it left running");
  }

  @Test
  void goodbyeThenCloseLeavesTheMarkedProcessesAlone() throws Exception {
    Process supervisor = supervisor();
    Process child = sleep("FSM_RUNNER_MARK=" + id);

    send(supervisor, "deadline 60000");
    send(supervisor, "bye");
    supervisor.getOutputStream().close();
    assertThat(supervisor.waitFor(10, TimeUnit.SECONDS)).as("the supervisor exits").isTrue();
    assertThat(child.isAlive()).isTrue();
    assertThat(errors(supervisor)).isEmpty();
  }

  @Test
  void aDeadlineThatPassesWithoutRenewalStopsThemAndRenewalsKeepThemAlive() throws Exception {
    Process supervisor = supervisor();
    Process child = sleep("FSM_RUNNER_MARK=" + id);

    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1200);
    long last = 0;
    while (System.nanoTime() - until < 0) {
      last = System.nanoTime();
      send(supervisor, "deadline 300");
      Thread.sleep(100);
      assertThat(child.isAlive()).as("alive while renewed").isTrue();
    }
    await("the unrenewed child to be stopped", STOPPED_WITHIN.plusMillis(300),
        () -> !child.isAlive());
    assertThat(Duration.ofNanos(System.nanoTime() - last)).isGreaterThanOrEqualTo(
        Duration.ofMillis(300));

    // The stop takes new marked processes too until a newer deadline comes: let it end first.
    await("the stop to be reported", Duration.ofSeconds(10), () -> errors(supervisor)
        .contains("renewed no lease in time: stopped 1 process(es)"));

    // It keeps running for a runner that comes back: a newer deadline is watched again.
    assertThat(supervisor.isAlive()).isTrue();
    Process next = sleep("FSM_RUNNER_MARK=" + id);
    send(supervisor, "deadline 200");
    await("the next child to be stopped", STOPPED_WITHIN.plusMillis(200), () -> !next.isAlive());
    send(supervisor, "idle");
    Process idle = sleep("FSM_RUNNER_MARK=" + id);
    send(supervisor, "bye");
    assertThat(supervisor.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(idle.isAlive()).as("no deadline while idle").isTrue();
  }

  @Test
  void processesWithoutTheExactMarkAreNeverTouched() throws Exception {
    Process supervisor = supervisor();
    Process marked = sleep("FSM_RUNNER_MARK=" + id);
    Process unmarked = sleep(null);
    Process otherRunner = sleep("FSM_RUNNER_MARK=" + id + "0");
    Process otherName = sleep("FSM_RUNNER=" + id);
    Process valueElsewhere = sleep("FSM_ATTEMPT_MARK=" + id);

    supervisor.getOutputStream().close();
    await("the marked child to be stopped", STOPPED_WITHIN, () -> !marked.isAlive());
    assertThat(supervisor.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(List.of(unmarked, otherRunner, otherName, valueElsewhere))
        .allMatch(Process::isAlive);
  }

  @Test
  void aMarkedStrayThatLeftByADoubleForkAndANewSessionIsStopped() throws Exception {
    Process supervisor = supervisor();
    Path pidFile = dir.resolve("stray.pid");
    ProcessBuilder b = new ProcessBuilder("/usr/bin/setsid", "sh", "-c",
        "sleep 60 & echo $! > '" + pidFile + "'");
    b.environment().put(Supervisor.VARIABLE, id);
    Process parent = b.start();
    assertThat(parent.waitFor(10, TimeUnit.SECONDS)).isTrue();
    await("the stray's pid", Duration.ofSeconds(10), () -> hasContent(pidFile));
    long stray = Long.parseLong(Files.readString(pidFile).strip());
    ProcessHandle.of(stray).ifPresent(strays::add);
    assertThat(running(stray)).isTrue();
    assertThat(ProcessHandle.of(stray).flatMap(ProcessHandle::parent).map(ProcessHandle::pid))
        .as("an orphan: not a descendant of the runner").isNotEqualTo(
            java.util.Optional.of(ProcessHandle.current().pid()));

    supervisor.getOutputStream().close();
    await("the stray to be stopped", STOPPED_WITHIN, () -> !running(stray));
  }

  @Test
  void theRunnersSideStartsItWithTheFirstProgramAndSaysGoodbyeOnClose() throws Exception {
    List<String> problems = new CopyOnWriteArrayList<>();
    Supervisor supervisor = new Supervisor(GRACE, problems::add);
    assertThat(supervisor.pid()).as("started lazily").isEmpty();
    supervisor.deadline(Duration.ofMinutes(1));
    assertThat(supervisor.pid()).isEmpty();
    supervisor.ensure();
    long pid = supervisor.pid().orElseThrow();
    Process kept = sleep(supervisor.mark());
    supervisor.close();
    await("the supervisor to exit", Duration.ofSeconds(10), () -> !running(pid));
    assertThat(kept.isAlive()).as("goodbye: nothing stopped").isTrue();
    assertThat(problems).isEmpty();

    Supervisor second = new Supervisor(GRACE, problems::add);
    second.ensure();
    Process stopped = sleep(second.mark());
    second.deadline(Duration.ofMillis(300));
    await("the child to be stopped at the deadline", Duration.ofSeconds(15),
        () -> !stopped.isAlive());
    second.close();
    assertThat(problems).isEmpty();
  }

  @Test
  void aSupervisorThatDiesIsReportedAndReplacedAtTheNextDeadline() throws Exception {
    List<String> problems = new CopyOnWriteArrayList<>();
    Supervisor supervisor = new Supervisor(GRACE, problems::add);
    try {
      supervisor.ensure();
      long first = supervisor.pid().orElseThrow();
      ProcessHandle.of(first).ifPresent(ProcessHandle::destroyForcibly);
      await("the death to be reported", Duration.ofSeconds(10), () -> !problems.isEmpty());
      assertThat(problems.get(0)).startsWith("the program supervisor (pid " + first + ") exited"
          + " with status 137; another starts with the next program or lease renewal");
      Process child = sleep(supervisor.mark());
      supervisor.deadline(Duration.ofMillis(200));
      assertThat(supervisor.pid()).isPresent().isNotEqualTo(java.util.Optional.of(first));
      await("the replacement to stop the child", Duration.ofSeconds(15), () -> !child.isAlive());
    } finally {
      supervisor.close();
    }
  }

  /** The supervisor main as fsm run starts it, up and reading its pipe. */
  private Process supervisor() throws IOException {
    Process p = new ProcessBuilder(Supervisor.command("FSM_RUNNER_MARK=" + id, GRACE, 4242))
        .redirectError(dir.resolve("supervisor-" + started.size() + ".err").toFile())
        .start();
    started.add(p);
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
        StandardCharsets.US_ASCII));
    assertThat(out.readLine()).isEqualTo("ready");
    return p;
  }

  private String errors(Process supervisor) {
    try {
      return Files.readString(dir.resolve("supervisor-" + started.indexOf(supervisor) + ".err"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** {@code sleep 60} with {@code entry} ({@code NAME=VALUE}) in its environment, or none. */
  private Process sleep(String entry) throws IOException {
    ProcessBuilder b = new ProcessBuilder("sleep", "60");
    b.environment().remove(Supervisor.VARIABLE);
    if (entry != null) {
      int eq = entry.indexOf('=');
      b.environment().put(entry.substring(0, eq), entry.substring(eq + 1));
    }
    Process p = b.start();
    started.add(p);
    return p;
  }

  private static void send(Process supervisor, String line) throws IOException {
    OutputStream in = supervisor.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
    in.flush();
  }

  private static boolean hasContent(Path file) {
    try {
      return Files.exists(file) && !Files.readString(file).isBlank();
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean running(long pid) {
    return !Proc.ended(Proc.statFields(Proc.entry(pid)));
  }

  private static void await(String what, Duration limit, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("waited " + limit.toMillis() + " ms for " + what);
      }
      Thread.sleep(5);
    }
  }
}
