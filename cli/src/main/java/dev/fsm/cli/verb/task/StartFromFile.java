package dev.fsm.cli.verb.task;

import dev.fsm.FsmException;
import dev.fsm.cli.terminal.ProgressLine;
import dev.fsm.engine.Contexts;
import dev.fsm.files.DiskFailure;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.Operations;
import dev.fsm.store.OutcomeUnknownException;
import dev.fsm.store.TaskExistsException;
import dev.fsm.task.Task;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Starts the tasks of a JSON-lines file: every line is checked before any task is started, then
 * tasks go to the store in chunks, each all or none, so a failure leaves a clear boundary. The
 * file is read twice, so a stream (a pipe, a FIFO, {@code -} for stdin) is first copied, once,
 * to a temporary file of its own, removed at {@link #close}.
 */
final class StartFromFile implements AutoCloseable {

  /** The name that reads stdin. */
  static final String STDIN = "-";

  /** Most tasks per call to the store: one durable commit each. */
  static final int CHUNK = 1_000;

  /**
   * Most bytes of tasks per call, as {@link #weight} estimates them. A chunk is one change in the
   * store (one record in the embedded store's journal), so it must stay under a store's limit for
   * one change: 1 MiB is half the journal's, leaving room for the estimate's error, and a task
   * with the largest context (1 MiB) still fits alone. {@code StartFromFileTest} holds it there.
   */
  static final long CHUNK_BYTES = 1 << 20;

  /** What a task costs in a journal record besides its id and context, generously. */
  private static final int TASK_OVERHEAD_BYTES = 512;

  private static final int ERRORS_SHOWN = 20;

  /** The file as the user named it, for messages. */
  private final String file;
  /** What is read: the file, or the copy of a stream. */
  private final Path source;
  private final boolean copied;
  private final Clock clock;

  private StartFromFile(String file, Path source, boolean copied, Clock clock) {
    // One fixed instant, so "at": "10m" means the same in the check and in the start.
    this.file = file;
    this.source = source;
    this.copied = copied;
    this.clock = Clock.fixed(clock.instant(), clock.getZone());
  }

  /**
   * The tasks of {@code file}, or of {@code stdin} when it is {@value #STDIN}; anything but a
   * regular file is read to its end now, into a temporary copy.
   */
  static StartFromFile open(Path file, Clock clock, InputStream stdin) {
    boolean fromStdin = file.toString().equals(STDIN);
    String name = fromStdin ? "stdin" : file.toString();
    if (!fromStdin && (Files.isRegularFile(file) || !Files.exists(file))) {
      return new StartFromFile(name, file, false, clock);
    }
    Path copy;
    try {
      copy = Files.createTempFile("fsm-start-", ".jsonl");
    } catch (IOException e) {
      throw new FsmException("--from " + name + ": cannot make a temporary copy of it to read"
          + " (" + e.getMessage() + "); write it to a file and give that file");
    }
    try (InputStream in = fromStdin ? stdin : Files.newInputStream(file);
        OutputStream out = Files.newOutputStream(copy)) {
      copyLines(in, out);
    } catch (IOException e) {
      deleteQuietly(copy);
      // Reading the stream or writing its copy: a full disk is about the copy's.
      throw DiskFailure.of(copy, "--from " + name + ": cannot copy it to read", e);
    }
    return new StartFromFile(name, copy, true, clock);
  }

  /**
   * Copies a stream, stopping once a line is surely longer than a line may be (at 4 bytes a
   * character), so that the check reports that line instead of {@code /dev/zero} filling a disk.
   */
  private static void copyLines(InputStream in, OutputStream out) throws IOException {
    long limit = 4L * Contexts.MAX_TEXT_BYTES + 4;
    long lineBytes = 0;
    byte[] buffer = new byte[65536];
    for (int n; (n = in.read(buffer)) >= 0; ) {
      for (int end = 0; end < n; end++) {
        lineBytes = buffer[end] == '\n' ? 0 : lineBytes + 1;
        if (lineBytes > limit) {
          out.write(buffer, 0, end + 1);
          return;
        }
      }
      out.write(buffer, 0, n);
    }
  }

  /** The file as the user named it: the path, or {@code stdin}. */
  String name() {
    return file;
  }

  /** What is read: the file, or the copy of a stream. */
  Path source() {
    return source;
  }

  /** Removes the copy of a stream. */
  @Override
  public void close() {
    if (copied) {
      deleteQuietly(source);
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // A temporary file: the system's cleaner takes what is left.
    }
  }

  /**
   * Checks every line; prints the bad ones as FILE:LINE: message on {@code err}.
   *
   * @return the number of tasks the file holds
   * @throws FsmException when any line is bad
   */
  long check(PrintWriter err) {
    long[] tasks = {0};
    List<String> problems = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    long[] bad = {0};
    read((lineNo, line) -> {
      try {
        if (line == null) {
          throw new IllegalArgumentException(tooLong());
        }
        NewTask t = TaskLines.parse(line, clock);
        if (t.id() != null && !ids.add(t.id())) {
          throw new IllegalArgumentException("id `" + t.id() + "` is given twice in the file");
        }
        tasks[0]++;
      } catch (IllegalArgumentException e) {
        if (++bad[0] <= ERRORS_SHOWN) {
          problems.add(file + ":" + lineNo + ": " + e.getMessage());
        }
      }
    });
    if (bad[0] > 0) {
      problems.forEach(err::println);
      if (bad[0] > ERRORS_SHOWN) {
        err.println("... and " + (bad[0] - ERRORS_SHOWN) + " more bad lines");
      }
      throw new FsmException(bad[0] + (bad[0] == 1 ? " bad line" : " bad lines") + " in "
          + file + "; no task was started. Fix " + (bad[0] == 1 ? "it" : "them")
          + " and run the command again");
    }
    if (tasks[0] == 0) {
      throw new FsmException(file + " has no tasks; write one JSON object per line, like"
          + " {\"id\": \"a1\", \"context\": {\"n\": 1}}");
    }
    return tasks[0];
  }

  /**
   * Starts the file's tasks chunk by chunk, handing each chunk's tasks to {@code started} as soon
   * as they are durable.
   *
   * @throws FsmException when a chunk fails, saying which lines were started and which not
   */
  void start(Operations control, MachineSource machine, long total, PrintWriter err,
      boolean idsPrinted, Consumer<List<Task>> started) {
    ProgressLine progress = ProgressLine.onStderr(err);
    List<NewTask> chunk = new ArrayList<>(CHUNK);
    long[] chunkBytes = {0};
    long[] firstLine = {0};
    long[] lastLine = {0};
    long[] done = {0};
    long[] startedUpTo = {0};
    Runnable send = () -> {
      try {
        started.accept(control.start(machine, chunk));
      } catch (FsmException e) {
        String ls = "`fsm ls --machine " + machine.name() + "`";
        // A taken id here is most often a file started before, in part: say how to go on.
        boolean taken = e instanceof TaskExistsException;
        String failed = "lines " + firstLine[0] + "-" + lastLine[0] + " of " + file
            + " failed: " + (taken ? "task `" + ((TaskExistsException) e).id() + "` exists"
                + " already, perhaps started by an earlier run of this file" : e.getMessage());
        throw new FsmException(failed + "; " + (e instanceof OutcomeUnknownException
            ? unsure(done[0], startedUpTo[0], firstLine[0], lastLine[0], idsPrinted, ls)
            : sure(done[0], startedUpTo[0], firstLine[0], idsPrinted, ls))
            + (taken ? ". To start the rest, leave out the lines whose tasks exist (`fsm ls -q"
                + " --machine " + machine.name() + " --limit " + total + "` lists their ids) and"
                + " run it again" : ""), e);
      }
      done[0] += chunk.size();
      startedUpTo[0] = lastLine[0];
      chunk.clear();
      chunkBytes[0] = 0;
      progress.show("starting tasks", done[0], total);
    };
    read((lineNo, line) -> {
      if (line == null) {
        // The file changed since it was checked.
        throw new FsmException(file + ":" + lineNo + ": " + tooLong());
      }
      NewTask task;
      try {
        task = TaskLines.parse(line, clock);
      } catch (IllegalArgumentException e) {
        throw new FsmException(file + ":" + lineNo + " changed after it was checked: "
            + e.getMessage() + "; " + sure(done[0], startedUpTo[0],
            chunk.isEmpty() ? lineNo : firstLine[0], idsPrinted,
            "`fsm ls --machine " + machine.name() + "`"));
      }
      long bytes = weight(task);
      if (!chunk.isEmpty() && chunkBytes[0] + bytes > CHUNK_BYTES) {
        send.run();
      }
      if (chunk.isEmpty()) {
        firstLine[0] = lineNo;
      }
      chunk.add(task);
      chunkBytes[0] += bytes;
      lastLine[0] = lineNo;
      if (chunk.size() == CHUNK) {
        send.run();
      }
    });
    if (!chunk.isEmpty()) {
      send.run();
    }
    if (done[0] != total) {
      throw new FsmException(file + " changed after it was checked: it held " + total
          + " tasks and " + done[0] + " were started from it; `fsm ls --machine "
          + machine.name() + "` lists them");
    }
  }

  /** What was started when a chunk's failure left nothing of it in the store. */
  private static String sure(long done, long startedUpTo, long from, boolean idsPrinted,
      String ls) {
    if (done == 0) {
      return "no task was started";
    }
    return "the " + done + " tasks of lines 1-" + startedUpTo + " were started ("
        + (idsPrinted ? "they are listed on stdout" : ls + " lists them") + ") and none from line "
        + from + " on";
  }

  /** What was started when the store could not say whether the failed chunk was saved. */
  private static String unsure(long done, long startedUpTo, long from, long to,
      boolean idsPrinted, String ls) {
    String chunk = "lines " + from + "-" + to + " may or may not have been started (" + ls
        + " shows which) and none after line " + to;
    if (done == 0) {
      return chunk;
    }
    return "the " + done + " tasks of lines 1-" + startedUpTo + " were started"
        + (idsPrinted ? " (they are listed on stdout)" : "") + "; " + chunk;
  }

  /** A task's size in a journal record, over-estimated: its context and id, and overhead. */
  static long weight(NewTask task) {
    return TASK_OVERHEAD_BYTES + utf8Bytes(task.context()) + utf8Bytes(task.id());
  }

  private static long utf8Bytes(String text) {
    if (text == null) {
      return 0;
    }
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      // A surrogate pair is 4 bytes: 2 for each half.
      bytes += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
    }
    return bytes;
  }

  private static String tooLong() {
    return "the line is longer than " + Contexts.MAX_TEXT_BYTES / Contexts.MAX_BYTES
        + " MiB; a task's context may hold at most 1 MiB";
  }

  private interface LineHandler {
    /** A non-blank line; {@code line} is null when it is too long to read, and the last. */
    void line(long lineNo, String line);
  }

  /** Calls {@code handler} with every non-blank line and its number. */
  private void read(LineHandler handler) {
    CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    long lineNo = 0;
    try (CappedLines in = new CappedLines(new InputStreamReader(Files.newInputStream(source),
        utf8), Contexts.MAX_TEXT_BYTES)) {
      for (CappedLines.Line line = in.next(); line != null; line = in.next()) {
        lineNo = line.number();
        String text = lineNo == 1 && !line.tooLong() && line.text().startsWith(
            ContextArgument.BOM) ? line.text().substring(1) : line.text();
        if (line.tooLong() || !text.isBlank()) {
          handler.line(lineNo, text);
        }
      }
    } catch (NoSuchFileException e) {
      throw new FsmException("--from " + file + ": no such file");
    } catch (CharacterCodingException e) {
      throw new FsmException(file + ":" + (lineNo + 1) + ": the line is not UTF-8 text; JSON"
          + " lines files are UTF-8");
    } catch (IOException e) {
      throw new FsmException("--from " + file + ": cannot read it: " + e.getMessage());
    }
  }
}
