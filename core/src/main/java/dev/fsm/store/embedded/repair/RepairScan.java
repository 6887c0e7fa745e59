package dev.fsm.store.embedded.repair;

import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.event.StoreEventCodec;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.JournalNote;
import dev.fsm.store.embedded.journal.JournalSalvage;
import dev.fsm.store.embedded.journal.SnapshotFile;
import dev.fsm.store.embedded.journal.SnapshotSalvage;
import dev.fsm.store.embedded.recovery.CleanMarker;
import dev.fsm.store.embedded.recovery.IndexOpening;
import dev.fsm.store.embedded.repair.RepairReport.Damaged;
import dev.fsm.store.embedded.repair.RepairReport.Range;
import dev.fsm.task.Task;
import dev.fsm.task.TaskIdRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A repair's first, read-only pass over a store folder: the damage in its journal and snapshot,
 * the journal records no file holds, what the sound records show of each task, and whether the
 * index a clean close left can be the basis of the repaired state (it holds every change up to
 * its close, whatever the journal lost before that).
 */
final class RepairScan implements AutoCloseable {

  private final Path folder;
  private final List<Damaged> damage = new ArrayList<>();
  private final RepairEvidence salvaged = new RepairEvidence();
  /** Task ids that damaged bytes name, with the history places they name. */
  private final Map<String, Set<Integer>> hinted = new HashMap<>();
  /** Runs of consecutive journal records read, as [first, last]; salvage gives them in order. */
  private final List<long[]> seen = new ArrayList<>();
  private boolean snapshotExists;
  private long snapshotSequence;
  private TaskIndex cleanIndex;
  private boolean clean;
  private long cleanSequence;
  private List<Range> missing = List.of();
  private List<Range> lost = List.of();
  private long lastRecord;

  private RepairScan(Path folder) {
    this.folder = folder;
  }

  static RepairScan of(Path folder, int maxRecordBytes, Duration indexOpenTimeout)
      throws IOException {
    RepairScan scan = new RepairScan(folder);
    try {
      scan.read(maxRecordBytes, indexOpenTimeout);
      return scan;
    } catch (IOException | RuntimeException | Error e) {
      scan.close();
      throw e;
    }
  }

  private void read(int maxRecordBytes, Duration indexOpenTimeout) throws IOException {
    Path snapshot = folder.resolve(SnapshotFile.NAME);
    OptionalLong covered = OptionalLong.empty();
    snapshotExists = Files.isRegularFile(snapshot);
    if (snapshotExists) {
      covered = SnapshotSalvage.read(snapshot, new SnapshotSalvage.Visitor() {
        @Override
        public void record(long offset, byte[] payload) {
          StoreEvent event = decode(payload);
          if (event == null) {
            damage.add(new Damaged(snapshot, offset, payload.length + 8L,
                "a record with a sound CRC that does not decode", Optional.empty()));
          } else {
            salvaged.journal(event);
          }
        }

        @Override
        public void damaged(JournalSalvage.Damage d) {
          noteDamage(d);
        }
      }).lastSequence();
    }
    JournalSalvage.Result journal = JournalSalvage.read(folder.resolve(Journal.FOLDER),
        maxRecordBytes, new JournalSalvage.Visitor() {
          @Override
          public void record(long sequence, byte[] payload) {
            StoreEvent event = decode(payload);
            // A record that does not decode is lost: counted as missing below.
            if (event != null) {
              see(sequence);
              salvaged.journal(event);
            }
          }

          @Override
          public void damaged(JournalSalvage.Damage d) {
            noteDamage(d);
          }
        });
    // A snapshot whose header is damaged covers what the oldest segment does not hold.
    snapshotSequence = snapshotExists
        ? covered.orElse(Math.max(0, journal.firstSequence() - 1)) : 0;
    OptionalLong closedAt = CleanMarker.peek(folder);
    // The journal's note of how far it got counts too: after a crash it is the only witness to
    // records lost from its end. A damaged one is no evidence.
    JournalNote note = Journal.note(folder.resolve(Journal.FOLDER));
    long end = Math.max(Math.max(journal.lastSequence(), closedAt.orElse(0)),
        note.sequence().orElse(0));
    if (closedAt.isPresent() && closedAt.getAsLong() >= snapshotSequence) {
      cleanIndex = IndexOpening.openIfClean(folder, closedAt.getAsLong(),
          indexOpenTimeout);
      clean = cleanIndex != null;
      cleanSequence = closedAt.getAsLong();
    }
    if (note.damage().isPresent()) {
      // Repaired, the new journal starts a note of its own.
      damage.add(new Damaged(note.file(), 0, Files.size(note.file()), note.damage().get(),
          Optional.of("the journal's note of how far it got")));
    }
    missing = missing(snapshotSequence + 1, end);
    lost = missing(basisSequence() + 1, end);
    lastRecord = Math.max(basisSequence(), end);
  }

  private void noteDamage(JournalSalvage.Damage d) {
    StoreEvent event = d.claimed() == null ? null : decode(d.claimed());
    if (event != null && !namesOnlyTaskIds(event)) {
      // The damage is in the id itself: the bytes name no task, so they hint at none.
      event = null;
    }
    Optional<String> readAs = Optional.empty();
    if (event instanceof StoreEvent.Created c) {
      c.tasks().forEach(t -> hinted.computeIfAbsent(t.id(), k -> new TreeSet<>()));
      readAs = Optional.of("the creation of task" + (c.tasks().size() == 1 ? " " : "s ")
          + c.tasks().stream().map(Task::id).collect(Collectors.joining(", ")));
    } else if (event instanceof StoreEvent.Changed c) {
      hinted.computeIfAbsent(c.task().id(), k -> new TreeSet<>()).add(c.historyIndex());
      readAs = Optional.of("history entry " + (c.historyIndex() + 1) + " of task "
          + c.task().id() + " (" + c.entry().from() + " -> " + c.entry().to() + ")");
    } else if (event instanceof StoreEvent.Restored r) {
      hinted.computeIfAbsent(r.task().id(), k -> new TreeSet<>());
      readAs = Optional.of("task " + r.task().id() + " with " + r.history().size()
          + " history entries");
    } else if (event instanceof StoreEvent.Imported i) {
      i.tasks().forEach(r -> hinted.computeIfAbsent(r.task().id(), k -> new TreeSet<>()));
      int n = i.tasks().size();
      readAs = Optional.of("the import of " + n + " task" + (n == 1 ? " " : "s ")
          + i.tasks().stream().limit(3).map(r -> r.task().id()).collect(Collectors.joining(", "))
          + (n > 3 ? ", ..." : ""));
    } else if (event instanceof StoreEvent.Purged p) {
      // The purge is lost, so these tasks are back as they were; the first few are named.
      int n = p.ids().size();
      readAs = Optional.of("the purge of " + n + " finished task" + (n == 1 ? " " : "s ")
          + String.join(", ", p.ids().subList(0, Math.min(3, n))) + (n > 3 ? ", ..." : ""));
    } else if (event instanceof StoreEvent.Registered r) {
      readAs = Optional.of("the registration of machine " + r.version().machine() + " version "
          + r.version().version());
    }
    damage.add(new Damaged(d.file(), d.offset(), d.length(), d.reason(), readAs));
  }

  /** True when every task id the event names is one fsm could have written. */
  private static boolean namesOnlyTaskIds(StoreEvent event) {
    List<String> ids = new ArrayList<>();
    if (event instanceof StoreEvent.Created c) {
      c.tasks().forEach(t -> ids.add(t.id()));
    } else if (event instanceof StoreEvent.Changed c) {
      ids.add(c.task().id());
    } else if (event instanceof StoreEvent.Restored r) {
      ids.add(r.task().id());
    } else if (event instanceof StoreEvent.Imported i) {
      i.tasks().forEach(r -> ids.add(r.task().id()));
    } else if (event instanceof StoreEvent.Purged p) {
      ids.addAll(p.ids());
    }
    return ids.stream().allMatch(TaskIdRule::allows);
  }

  private void see(long sequence) {
    long[] last = seen.isEmpty() ? null : seen.get(seen.size() - 1);
    if (last != null && last[1] + 1 == sequence) {
      last[1] = sequence;
    } else {
      seen.add(new long[] {sequence, sequence});
    }
  }

  /** The ranges of records in [from, to] that no sound, decodable record holds. */
  private List<Range> missing(long from, long to) {
    List<Range> ranges = new ArrayList<>();
    long next = from;
    for (long[] run : seen) {
      if (run[1] < next) {
        continue;
      }
      if (run[0] > to) {
        break;
      }
      if (run[0] > next) {
        ranges.add(new Range(next, run[0] - 1));
      }
      next = run[1] + 1;
    }
    if (next <= to) {
      ranges.add(new Range(next, to));
    }
    return ranges;
  }

  static StoreEvent decode(byte[] payload) {
    try {
      return StoreEventCodec.decode(payload);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** True when there is nothing to repair. */
  boolean sound() {
    return damage.isEmpty() && missing.isEmpty();
  }

  RepairReport soundReport() {
    return new RepairReport(folder, List.of(), List.of(), List.of(), basis(), 0, lastRecord,
        List.of(),
        List.of(), List.of(), Optional.empty(), List.of());
  }

  /** The index a clean close left, when it can be the basis; null otherwise. */
  TaskIndex cleanIndex() {
    return cleanIndex;
  }

  /** True when the clean index is the basis. */
  boolean basedOnCleanIndex() {
    return clean;
  }

  /** True when the snapshot's sound records are the basis. */
  boolean snapshotUsable() {
    return !clean && snapshotExists;
  }

  /** The journal record the basis covers: later records are applied over it. */
  long basisSequence() {
    return clean ? cleanSequence : snapshotSequence;
  }

  String basis() {
    if (clean) {
      return RepairReport.CLEAN_INDEX + " (closed at journal record " + cleanSequence + ")";
    }
    return snapshotExists ? "the snapshot (journal record " + snapshotSequence + ") and the"
        + " journal after it" : "the journal";
  }

  long lastRecord() {
    return lastRecord;
  }

  List<Damaged> damage() {
    return damage;
  }

  /** Journal records after the snapshot that no sound, decodable record holds. */
  List<Range> missingRecords() {
    return missing;
  }

  /** The missing records the basis does not cover either. */
  List<Range> lostRecords() {
    return lost;
  }

  RepairEvidence salvaged() {
    return salvaged;
  }

  Map<String, Set<Integer>> hintedTasks() {
    return hinted;
  }

  @Override
  public void close() {
    if (cleanIndex != null) {
      cleanIndex.close();
      cleanIndex = null;
    }
  }
}
