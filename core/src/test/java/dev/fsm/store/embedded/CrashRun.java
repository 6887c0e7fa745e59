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
import java.util.concurrent.locks.LockSupport;

/**
 * One life of a {@link CrashWriter} process, ended by SIGKILL at a random moment: soon after it
 * starts opening the store (often mid-rebuild), after a random number of acknowledged changes,
 * or at a checkpoint's boundary (just after one began, or the moment one ended, when the changes
 * its copy took may still be on their way to the journal). Most writers run under induced load:
 * threads burning CPU beside them, one processor as far as the JVM knows, and a journal writer
 * that stalls now and then. Returns every whole line the writer printed.
 */
final class CrashRun {

  /** How a run ended and what it printed. */
  record Lines(List<String> lines, String how, Boundary boundary) {}

  /** Where a kill was aimed. */
  enum Boundary { OPEN, ACKS, CHECKPOINT_START, CHECKPOINT_END }

  /** CPU-burning threads beside a loaded writer. */
  static final int BURNERS = 1;

  private CrashRun() {}

  static Lines killAtRandom(Path folder, int run, Random random, Path errors) {
    boolean early = random.nextInt(4) == 0;
    // Half the early kills land in a rebuild the writer was asked for; the test's clean close
    // leaves nothing else to rebuild.
    boolean rebuild = early && random.nextBoolean();
    int acks = 1 + random.nextInt(100);
    // The rest in quarters: after some acks with or without checkpoints, and at a checkpoint's
    // start or end, where a copy may have taken changes the journal has not written yet.
    int quarter = random.nextInt(4);
    boolean checkpoints = !early && quarter > 0;
    Boundary boundary = early ? Boundary.OPEN : quarter < 2 ? Boundary.ACKS
        : quarter == 2 ? Boundary.CHECKPOINT_START : Boundary.CHECKPOINT_END;
    int checkpointsBefore = 1 + random.nextInt(6);
    boolean loaded = random.nextInt(3) != 0;
    Process writer = start(folder, run, random.nextLong(), rebuild, checkpoints,
        loaded ? BURNERS : 0, errors);
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
      } else if (boundary == Boundary.ACKS) {
        await(out, lines, "A ", acks, writer, errors);
        how = "killed after " + acks + " acknowledged changes"
            + (checkpoints ? " while taking checkpoints" : "");
      } else if (boundary == Boundary.CHECKPOINT_START) {
        await(out, lines, "C ", checkpointsBefore, writer, errors);
        long delay = random.nextLong(3_000_000);
        LockSupport.parkNanos(delay);
        how = "killed " + delay / 1000 + " µs after checkpoint " + checkpointsBefore + " began";
      } else {
        await(out, lines, "c ", checkpointsBefore, writer, errors);
        how = "killed as checkpoint " + checkpointsBefore + " ended";
      }
      how += loaded ? " (loaded)" : "";
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
    return new Lines(whole, midCheckpoint(whole) ? how + ", mid-checkpoint" : how, boundary);
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
      boolean checkpoints, int burners, Path errors) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m"));
    if (burners > 0) {
      command.add("-XX:ActiveProcessorCount=1");
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"),
        CrashWriter.class.getName(), folder.toString(), Integer.toString(run),
        Long.toString(seed), "4", rebuild ? "--rebuild" : "--reuse",
        checkpoints ? "--checkpoints" : "--no-checkpoints", Integer.toString(burners)));
    try {
      return new ProcessBuilder(command)
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
