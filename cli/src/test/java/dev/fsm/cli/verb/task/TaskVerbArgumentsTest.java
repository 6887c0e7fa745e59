package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.cli.Fsm;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Command lines the task verbs refuse as usage errors (exit 2) before touching any store. */
class TaskVerbArgumentsTest {

  private String err;

  private int run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter errors = new StringWriter();
    int status = Fsm.run(new PrintWriter(out, true), new PrintWriter(errors, true),
        Map.of("FSM_STORE", "/nonexistent/store"), args);
    err = errors.toString();
    assertThat(out.toString()).as("nothing on stdout").isEmpty();
    return status;
  }

  @Test
  void sendNeedsAnIdAndACommandOrAMachineAndACommand() {
    assertThat(run("send", "a1")).isEqualTo(2);
    assertThat(err).contains("give a task id and a command: fsm send ID COMMAND");
    assertThat(run("send", "--machine", "order", "a1", "pause")).isEqualTo(2);
    assertThat(err).contains("with --machine give only the command");
    assertThat(run("send", "a1", "pause", "--status", "paused")).isEqualTo(2);
    assertThat(err).contains("add --machine M");
  }

  @Test
  void anUnknownCommandListsTheCommands() {
    assertThat(run("send", "a1", "pasue")).isEqualTo(2);
    assertThat(err).startsWith("fsm: unknown command `pasue`; did you mean `pause`? (one of:"
        + " run, resume, pause, sleep, kill, error, complete, checkpoint, release,"
        + " redrive)\n");
  }

  @Test
  void sleepNeedsUntilAndOnlySleepTakesIt() {
    assertThat(run("send", "a1", "sleep")).isEqualTo(2);
    assertThat(err).contains("`sleep` needs --until TIME|DURATION");
    assertThat(run("send", "a1", "pause", "--until", "5m")).isEqualTo(2);
    assertThat(err).contains("--until is for `sleep` only");
    assertThat(run("send", "a1", "sleep", "--until", "later")).isEqualTo(2);
    assertThat(err).contains("'--until'").contains("`later` is neither a time nor a duration");
  }

  @Test
  void onlyRedriveTakesTo() {
    assertThat(run("send", "a1", "run", "--to", "ship")).isEqualTo(2);
    assertThat(err).contains("--to is for `redrive` only");
    assertThat(run("send", "--machine", "order", "kill", "--to", "ship")).isEqualTo(2);
    assertThat(err).contains("--to is for `redrive` only");
  }

  @Test
  void startFromAFileTakesNoPerTaskOptions() {
    assertThat(run("start", "order", "--from", "t.jsonl", "--id", "a1")).isEqualTo(2);
    assertThat(err).contains("leave out --id, --context and --at");
    assertThat(run("start", "order", "--at", "whenever")).isEqualTo(2);
  }

  @Test
  void lsChecksItsLimitAndStatus() {
    assertThat(run("ls", "--limit", "0")).isEqualTo(2);
    assertThat(err).contains("--limit").contains("`0` is too few; give at least 1");
    assertThat(run("errors", "--limit", "-3")).isEqualTo(2);
    assertThat(err).contains("`-3` is too few; give at least 1");
    assertThat(run("ls", "--limit", "ten")).isEqualTo(2);
    assertThat(err).contains("`ten` is not a whole number");
    // Past an int it asks for everything, as head -n does: the listing goes on to the store.
    assertThat(run("ls", "--limit", "99999999999")).isEqualTo(1);
    assertThat(err).contains("no fsm store at /nonexistent/store");
  }

  @Test
  void aMalformedIdOrContextIsAUsageError() {
    assertThat(run("start", "order", "--id", "a/b")).isEqualTo(2);
    assertThat(err).isEqualTo("fsm: --id `a/b` is not allowed: use 1 to 128 letters, digits and"
        + " . _ : @ -, starting with a letter or digit\n");
    assertThat(run("signal", "t1", "go", "--context", "{bad")).isEqualTo(2);
    assertThat(err).startsWith("fsm: --context is not valid JSON at column 2");
    assertThat(run("ls", "--status", "done")).isEqualTo(2);
    assertThat(err).contains("unknown status `done`").contains("completed");
  }

  @Test
  void aMissingStoreIsRefusedNotCreated() {
    assertThat(run("ls")).isEqualTo(1);
    assertThat(err).isEqualTo("fsm: no fsm store at /nonexistent/store; start a task there"
        + " first with `fsm start MACHINE`, or name a store with --store PATH or $FSM_STORE\n");
  }
}
