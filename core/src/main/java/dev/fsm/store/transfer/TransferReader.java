package dev.fsm.store.transfer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskIdRule;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads an export file a line at a time, checking everything a line can be checked for: the
 * header first, the format's version, each line's keys and values, machine versions before the
 * tasks pinned to them, and the end line last with the counts of what came before it. A problem
 * is a {@link TransferFileException} naming the file and the line. Memory holds one line and the
 * machine versions' ids, however many tasks the file holds.
 */
public final class TransferReader implements AutoCloseable {

  private static final int MAX_CONTEXT_BYTES = 1 << 20;

  private final String name;
  private final InputStream stream;
  private final LineInput lines;
  private final ObjectMapper json = new ObjectMapper();
  private final Set<String> versions = new HashSet<>();
  private long line;
  private TransferCounts counts = TransferCounts.NONE;
  private boolean tasksBegun;
  private String lastId;
  private int lastChars;
  private boolean ended;

  /** A reader of {@code in}, whose messages call it {@code name} (e.g. the file's path). */
  public TransferReader(InputStream in, String name) {
    this.name = name;
    this.stream = in;
    this.lines = new LineInput(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)), TransferFormat.MAX_LINE_CHARS);
  }

  /** The number of the line read last, from 1. */
  public long line() {
    return line;
  }

  /** The length in characters of the line read last: a measure of its record's size. */
  public int lineChars() {
    return lastChars;
  }

  /**
   * The next record, or empty after the end line, which must be the file's last.
   *
   * @throws TransferFileException naming the file and line when something is wrong
   */
  public Optional<TransferRecord> next() throws IOException {
    String text = read();
    if (text == null) {
      if (ended) {
        return Optional.empty();
      }
      throw new TransferFileException(line == 0 ? name + " is empty: it is not an fsm export"
          : name + " ends after line " + line + " without its end line: the export was cut"
              + " short (or is still being written); export again");
    }
    if (ended) {
      throw malformed("a line after the end line; the file was changed after it was written");
    }
    try {
      TransferRecord r = record(LineFields.parse(text, json));
      return Optional.of(r);
    } catch (LineFields.Malformed e) {
      throw malformed(e.getMessage());
    }
  }

  private String read() throws IOException {
    try {
      String text = lines.next();
      if (text != null) {
        line++;
        lastChars = text.length();
      }
      return text;
    } catch (LineInput.TooLong e) {
      throw new TransferFileException(name + " line " + (line + 1) + " is longer than "
          + (TransferFormat.MAX_LINE_CHARS >> 20) + " Mi characters: this is not an fsm export,"
          + " or it was damaged");
    } catch (CharacterCodingException e) {
      throw new TransferFileException(name + " line " + (line + 1) + " is not UTF-8 text: this"
          + " is not an fsm export, or it was damaged");
    }
  }

  private TransferRecord record(LineFields f) {
    if (line == 1) {
      return header(f);
    }
    String type = f.string("type");
    switch (type) {
      case "machine_version" -> {
        if (tasksBegun) {
          throw new LineFields.Malformed("a machine_version line after task lines; every"
              + " machine version comes before the tasks");
        }
        MachineVersion v = version(f);
        if (!versions.add(v.machine() + "\n" + v.version())) {
          throw new LineFields.Malformed("machine " + v.machine() + " version " + v.version()
              + " a second time");
        }
        counts = counts.plusVersion();
        return new TransferRecord.Version(v);
      }
      case "task" -> {
        tasksBegun = true;
        TaskHistory t = task(f);
        String id = t.task().id();
        if (lastId != null && TaskQuery.compareIds(lastId, id) >= 0) {
          throw new LineFields.Malformed("task `" + id + "` " + (lastId.equals(id)
              ? "a second time" : "after task `" + lastId + "`: tasks come in id order"));
        }
        lastId = id;
        counts = counts.plusTask(t.history().size());
        return new TransferRecord.TaskLine(t);
      }
      case "end" -> {
        TransferCounts said = new TransferCounts(f.number("machine_versions"),
            f.number("tasks"), f.number("history_entries"));
        if (!said.equals(counts)) {
          throw new LineFields.Malformed("the end line counts " + said.summary() + ", but the"
              + " file holds " + counts.summary() + "; it was changed after it was written");
        }
        ended = true;
        return new TransferRecord.End(said);
      }
      case "header" -> throw new LineFields.Malformed("a second header line");
      default -> throw new LineFields.Malformed("unknown line type \"" + type + "\" (this fsm"
          + " knows header, machine_version, task and end)");
    }
  }

  private TransferRecord.Header header(LineFields f) {
    if (!f.has("format") || !TransferFormat.NAME.equals(f.stringOrNull("format"))) {
      throw new TransferFileException(name + " is not an fsm export: its first line has no"
          + " \"format\": \"" + TransferFormat.NAME + "\"");
    }
    int version = f.integer("version");
    String fsm = f.has("fsm") ? f.stringOrNull("fsm") : null;
    if (version > TransferFormat.VERSION || version < 1) {
      throw new TransferFileException(name + " is in export format version " + version
          + (fsm == null ? "" : ", written by fsm " + fsm) + "; this fsm reads version "
          + TransferFormat.VERSION + " only: import it with the fsm that wrote it, or a newer"
          + " one");
    }
    return new TransferRecord.Header(version, fsm == null ? "" : fsm, f.instant("exported_at"));
  }

  private static MachineVersion version(LineFields f) {
    int number = f.integer("number");
    if (number < 1) {
      throw new LineFields.Malformed("\"number\" must be 1 or more");
    }
    return new MachineVersion(nonEmpty(f, "machine"), nonEmpty(f, "id"), number,
        f.instant("registered"), f.string("definition"));
  }

  private TaskHistory task(LineFields f) {
    String id = nonEmpty(f, "id");
    if (!TaskIdRule.allows(id)) {
      // No start could have made it; a later ls or send could not name it either.
      throw new LineFields.Malformed("task id `" + TaskIdRule.shown(id) + "` is not allowed: "
          + TaskIdRule.WORDS);
    }
    try {
      String machine = nonEmpty(f, "machine");
      String version = nonEmpty(f, "version");
      if (!versions.contains(machine + "\n" + version)) {
        throw new LineFields.Malformed("it is pinned to version " + version + " of machine "
            + machine + ", which no machine_version line before it holds");
      }
      String status = f.string("status");
      TaskStatus s = TaskStatus.parse(status).orElseThrow(() -> new LineFields.Malformed(
          "\"status\" is \"" + status + "\", not a task status"));
      String context = f.context();
      if (context.length() > MAX_CONTEXT_BYTES / 4
          && context.getBytes(StandardCharsets.UTF_8).length > MAX_CONTEXT_BYTES) {
        throw new LineFields.Malformed("its context is over 1 MiB, the most a task may hold");
      }
      List<TaskError> errors = new ArrayList<>();
      int n = 0;
      for (JsonNode e : f.array("errors")) {
        LineFields ef = LineFields.of(e, "error " + ++n);
        errors.add(new TaskError(ef.instant("time"), ef.string("message")));
      }
      LineFields lease = f.objectOrNull("lease");
      LineFields pausing = f.objectOrNull("pausing");
      Task task = new Task(id, machine, version, f.string("state"), s, context,
          f.integer("attempt"), errors, f.instant("created"), f.instantOrNull("state_entered"),
          f.instantOrNull("last_attempt"), f.instantOrNull("due"),
          lease == null ? null : new Lease(lease.string("owner"), lease.instant("until")),
          pausing == null ? null : new Pausing(pausing.instant("at"), pausing.string("by"),
              pausing.string("reason")),
          f.has("changed") ? f.instant("changed") : null);
      List<Transition> history = new ArrayList<>();
      n = 0;
      for (JsonNode e : f.array("history")) {
        LineFields h = LineFields.of(e, "history entry " + ++n);
        history.add(new Transition(h.instant("time"), h.string("from"), h.string("event"),
            h.string("to"), h.number("duration_ms"), h.integer("attempt"), h.string("by"),
            h.string("reason")));
      }
      if (!f.has("changed") && !history.isEmpty()) {
        // A file from an fsm before `changed`: its newest entry is its last change.
        task = task.withChanged(history.get(history.size() - 1).time());
      }
      return new TaskHistory(task, history);
    } catch (LineFields.Malformed e) {
      throw new LineFields.Malformed("task `" + id + "`: " + e.getMessage());
    }
  }

  private static String nonEmpty(LineFields f, String key) {
    String s = f.string(key);
    if (s.isEmpty()) {
      throw new LineFields.Malformed("\"" + key + "\" is empty");
    }
    return s;
  }

  private TransferFileException malformed(String what) {
    return new TransferFileException(name + " line " + line + ": " + what);
  }

  @Override
  public void close() throws IOException {
    stream.close();
  }
}
