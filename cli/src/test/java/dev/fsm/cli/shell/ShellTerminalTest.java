package dev.fsm.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.cli.Fsm;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.ExternalTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The interactive shell driven through JLine's test terminal, keystroke by keystroke. */
class ShellTerminalTest {

  @TempDir Path dir;

  private final StringBuffer screen = new StringBuffer();
  private PipedOutputStream keyboard;
  private Terminal terminal;
  private Thread shell;
  private final AtomicInteger status = new AtomicInteger(-1);
  private Map<String, String> env;

  @BeforeEach
  void start() throws Exception {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/approval.yaml"), """
        machine: approval
        states:
          review:
            on: {approve: done, reject: rejected}
          done: {final: completed}
          rejected: {final: failed}
        """);
    env = new HashMap<>();
    env.put("FSM_STORE", dir.resolve("store").toString());
    env.put("FSM_MACHINES", dir.resolve("machines").toString());
    for (String id : new String[] {"alpha-1", "alpha-2", "beta-1"}) {
      StringWriter err = new StringWriter();
      int rc = Fsm.run(new PrintWriter(new StringWriter()), new PrintWriter(err), env, "start",
          "approval", "--id", id);
      assertThat(rc).as(err.toString()).isZero();
    }
    keyboard = new PipedOutputStream();
    OutputStream display = new OutputStream() {
      @Override
      public void write(int b) {
        screen.append((char) b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        screen.append(new String(b, off, len, StandardCharsets.UTF_8));
      }
    };
    // An external terminal, not a pty: its line discipline runs in Java and raises Ctrl-C as
    // a signal to the shell, where a pty's kernel discipline would signal another process.
    terminal = new ExternalTerminal("test", "xterm-256color", new PipedInputStream(keyboard),
        display, StandardCharsets.UTF_8);
    terminal.setSize(new Size(120, 40));
    shell = new Thread(() -> status.set(new InteractiveShell(Fsm::commandLine, terminal,
        env, dir.resolve("state/fsm/history"), false).run()));
    shell.start();
    waitFor("fsm> ", 1);
  }

  @AfterEach
  void stop() throws Exception {
    if (shell.isAlive()) {
      type("exit\n");
      shell.join(10_000);
    }
    terminal.close();
  }

  @Test
  void completesATaskIdFromItsPrefix() throws Exception {
    type("show be\t");
    waitFor("show beta-1 ", 1);
    type("\n");
    waitFor("approval", 1);
    assertThat(screen.toString()).contains("review");
  }

  @Test
  void completesVerbsEventsAndCommands() throws Exception {
    type("sig\t");
    waitFor("signal ", 1);
    type("alpha-1 ap\t");
    waitFor("alpha-1 approve ", 1);
    type("\n");
    waitFor("done, completed", 1);
  }

  @Test
  void recallsHistoryWithTheUpArrowAndKeepsItInAFile() throws Exception {
    type("ls --status waiting\n");
    waitFor("DUE/UPDATED", 1);
    // The arrow as xterm sends it once the shell switches the keypad to application mode.
    type("\u001bOA\n");
    waitFor("DUE/UPDATED", 2);
    type("exit\n");
    shell.join(10_000);
    assertThat(status.get()).isZero();
    assertThat(Files.readString(dir.resolve("state/fsm/history")))
        .contains("ls --status waiting");
  }

  @Test
  void printsAnErrorAndCarriesOn() throws Exception {
    type("show nosuch\n");
    waitFor("no task", 1);
    type("lss\n");
    waitFor("unknown verb `lss`; did you mean `ls`?", 1);
    type("ls\n");
    waitFor("alpha-2", 1);
    assertThat(shell.isAlive()).isTrue();
  }

  @Test
  void ctrlCStopsWatchButNotTheShell() throws Exception {
    type("watch --interval 100ms\n");
    waitFor("DUE/UPDATED", 1);
    type("\u0003");
    waitFor("fsm> ", 2);
    type("history alpha-1\n");
    waitFor("TIME", 1);
    assertThat(shell.isAlive()).isTrue();
  }

  @Test
  void ctrlDLeaves() throws Exception {
    type("\u0004");
    shell.join(10_000);
    assertThat(shell.isAlive()).isFalse();
    assertThat(status.get()).isZero();
  }

  private void type(String keys) throws IOException {
    keyboard.write(keys.getBytes(StandardCharsets.UTF_8));
    keyboard.flush();
  }

  private void waitFor(String text, int times) throws InterruptedException {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (System.nanoTime() < deadline) {
      if (count(screen.toString(), text) >= times) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("waited 20 s for " + times + " x `" + text + "`; the screen:\n"
        + screen);
  }

  private static int count(String haystack, String needle) {
    int n = 0;
    for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }
}
