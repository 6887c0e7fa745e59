package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another process holding an embedded store open (purpose {@code fsm}, no control socket), as a
 * long-running short-lived command would, until {@link #release}: {@link StoreFixture}'s
 * {@code hold} mode.
 */
final class Holder implements AutoCloseable {

  private final Process process;

  private Holder(Process process) {
    this.process = process;
  }

  /** Starts the holder and returns once it holds {@code store}. */
  static Holder start(Path store) throws IOException {
    Process p = new ProcessBuilder(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), StoreFixture.class.getName(), "hold",
        store.toString())).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Holder holder = new Holder(p);
    String first = new BufferedReader(new InputStreamReader(p.getInputStream(),
        StandardCharsets.UTF_8)).readLine();
    assertThat(first).as("the holder's first line").startsWith("held");
    return holder;
  }

  long pid() {
    return process.pid();
  }

  /** Closes the store and waits for the holder to end. */
  void release() throws IOException {
    process.getOutputStream().close();
    try {
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("holder ends").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
