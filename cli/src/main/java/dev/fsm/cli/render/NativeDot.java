package dev.fsm.cli.render;

import dev.fsm.FsmException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Graphviz's own {@code dot} program, when one is on PATH: the fastest and most polished route. */
public final class NativeDot {

  private static final long TIMEOUT_SECONDS = 60;

  private final Path program;

  private NativeDot(Path program) {
    this.program = program;
  }

  /** The {@code dot} on {@code path} (a PATH value, may be null), if there is an executable one. */
  public static Optional<NativeDot> find(String path) {
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, "dot");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(new NativeDot(candidate));
      }
    }
    return Optional.empty();
  }

  /** Where the program is, for messages. */
  public Path program() {
    return program;
  }

  /**
   * Runs {@code dot -Tsvg|-Tpng} on the DOT text: stdin to stdout, no temporary files.
   *
   * @throws FsmException when dot cannot start, fails or takes over a minute
   */
  public byte[] render(String dotText, Format format) {
    Process process;
    try {
      process = new ProcessBuilder(program.toString(), "-T" + format.name()).start();
    } catch (IOException e) {
      throw new FsmException("cannot run " + program + ": " + e.getMessage()
          + "; fix or remove it, or render with --engine java");
    }
    // dot reads all of its input before it writes, but a writer thread keeps a large graph from
    // filling the pipe either way.
    Thread feeder = new Thread(() -> {
      try (OutputStream in = process.getOutputStream()) {
        in.write(dotText.getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        // dot exited early; its stderr says why.
      }
    }, "dot-stdin");
    feeder.setDaemon(true);
    feeder.start();
    try (InputStream out = process.getInputStream(); InputStream err = process.getErrorStream()) {
      byte[] image = out.readAllBytes();
      String problems = new String(err.readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new FsmException(program + " took over " + TIMEOUT_SECONDS + " s; render with"
            + " --engine java, or --format dot and run dot yourself");
      }
      if (process.exitValue() != 0 || image.length == 0) {
        throw new FsmException(program + " failed (exit " + process.exitValue() + ")"
            + (problems.isEmpty() ? "" : ": " + problems) + "; render with --engine java");
      }
      return image;
    } catch (IOException e) {
      throw new FsmException("cannot read the output of " + program + ": " + e.getMessage());
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new FsmException("interrupted while " + program + " was rendering");
    }
  }
}
