package dev.fsm.store.embedded;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * One life of a {@link CrashWriter} process, ended by SIGKILL at a random moment: soon after it
 * starts opening the store (often mid-rebuild), or after a random number of acknowledged
 * changes. Returns every whole line the writer printed.
 */
final class CrashRun {

  /** How a run ended and what it printed. */
  record Lines(List<String> lines, String how) {}

  private CrashRun() {}

  static Lines killAtRandom(Path folder, int run, Random random, Path errors) {
    boolean early = random.nextInt(4) == 0;
    // Half the early kills land in a rebuild the writer was asked for; the test's clean close
    // leaves nothing else to rebuild.
    boolean rebuild = early && random.nextBoolean();
    int acks = 1 + random.nextInt(100);
    boolean checkpoints = !early && random.nextBoolean();
    Process writer = start(folder, run, random.nextLong(), rebuild, checkpoints, errors);
    List<String> lines = new ArrayList<>();
    String how;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(),
        StandardCharsets.UTF_8))) {
      if (early) {
        await(out, lines, "O .", 1, writer, errors);
        int delay = random.nextInt(400);
        Thread.sleep(delay);
        how = "killed " + delay + " ms after it began to open the store"
            + (rebuild ? " with a rebuild" : "");
      } else {
        await(out, lines, "A ", acks, writer, errors);
        how = "killed after " + acks + " acknowledged changes"
            + (checkpoints ? " while taking checkpoints" : "");
      }
      // SIGKILL through the handle: Process.destroyForcibly also closes the pipe being read.
      writer.toHandle().destroyForcibly();
      if (!writer.waitFor(30, TimeUnit.SECONDS)) {
        throw new AssertionError("writer " + writer.pid() + " outlived SIGKILL");
      }
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      writer.destroyForcibly();
    }
    // The line the kill cut short, if any, never ends with its terminator.
    List<String> whole = lines.stream().filter(l -> l.endsWith(" .")).toList();
    return new Lines(whole, midCheckpoint(whole) ? how + ", mid-checkpoint" : how);
  }

  /** True when the last checkpoint the writer began had not ended when it was killed. */
  static boolean midCheckpoint(List<String> lines) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (lines.get(i).equals("C .")) {
        return true;
      }
      if (lines.get(i).equals("c .")) {
        return false;
      }
    }
    return false;
  }

  private static Process start(Path folder, int run, long seed, boolean rebuild,
      boolean checkpoints, Path errors) {
    try {
      return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
          "-cp", System.getProperty("java.class.path"), CrashWriter.class.getName(),
          folder.toString(), Integer.toString(run), Long.toString(seed), "4",
          rebuild ? "--rebuild" : "--reuse", checkpoints ? "--checkpoints" : "--no-checkpoints")
          .redirectError(ProcessBuilder.Redirect.appendTo(errors.toFile())).start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads lines until {@code count} of them start with {@code prefix}. */
  private static void await(BufferedReader out, List<String> lines, String prefix, int count,
      Process writer, Path errors) throws IOException {
    int seen = 0;
    while (seen < count) {
      String line = out.readLine();
      if (line == null) {
        throw new AssertionError("writer " + writer.pid() + " stopped by itself after "
            + lines.size() + " lines: " + Files.readString(errors));
      }
      lines.add(line);
      if (line.startsWith(prefix)) {
        seen++;
      }
    }
  }
}
