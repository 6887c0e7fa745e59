package dev.fsm.store.embedded.repair;

import dev.fsm.FsmException;
import dev.fsm.files.StoreFiles;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.embedded.event.SnapshotRecord;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.index.JournalTail;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.JournalSalvage;
import dev.fsm.store.embedded.journal.SnapshotFile;
import dev.fsm.store.embedded.journal.SnapshotSalvage;
import dev.fsm.store.embedded.owner.StoreLock;
import dev.fsm.store.embedded.repair.RepairReport.LostTask;
import dev.fsm.task.Task;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * One run of {@code fsm store repair} on a store folder up to, not including, the open that
 * rebuilds the repaired store's index (see {@code StoreRepair}): scans the journal and snapshot,
 * builds the state they prove into a new snapshot and journal, and swaps them in.
 */
public final class RepairRun {

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private final Path folder;
  private final int maxRecordBytes;
  private final RepairScan scan;

  private RepairRun(Path folder, int maxRecordBytes, RepairScan scan) {
    this.folder = folder;
    this.maxRecordBytes = maxRecordBytes;
    this.scan = scan;
  }

  /**
   * Repairs the store in {@code folder}, which must exist, naming the damaged originals' folder
   * after {@code now}; the caller then opens the store when the report is not sound.
   *
   * @throws dev.fsm.store.embedded.owner.StoreInUseException when another process has the
   *     store open
   */
  public static RepairReport run(Path folder, int maxRecordBytes, Duration indexOpenTimeout,
      Instant now) {
    RepairReport report;
    try (StoreLock lock = StoreLock.acquire(folder, "fsm store repair")) {
      Optional<Path> unfinished = RepairFolders.unfinished(folder);
      if (unfinished.isPresent()) {
        RepairFolders.swap(folder, unfinished.get());
        Path saved = unfinished.get().resolve(RepairFolders.REPORT);
        report = RepairReport.resumed(folder, unfinished.get(), Files.exists(saved)
            ? Files.readAllLines(saved, StandardCharsets.UTF_8) : List.of("(no report saved)"));
      } else {
        RepairScan scan = RepairScan.of(folder, maxRecordBytes, indexOpenTimeout);
        try {
          report = scan.sound() ? scan.soundReport()
              : new RepairRun(folder, maxRecordBytes, scan).repair(TIME.format(now));
        } finally {
          scan.close();
        }
      }
    } catch (IOException e) {
      throw new FsmException("cannot repair store " + folder + ": " + e + " (the store is as it"
          + " was, or as a rerun of `fsm store repair` finishes it; check the disk has room and"
          + " the folder is writable)", e);
    }
    return report;
  }

  /** True when {@code folder} holds a repair that was interrupted after its commit. */
  public static boolean interrupted(Path folder) {
    try {
      return RepairFolders.unfinished(folder).isPresent();
    } catch (IOException e) {
      return false;
    }
  }

  private RepairReport repair(String time) throws IOException {
    Path stage = RepairFolders.stage(folder);
    Path index = stage.resolve(TaskIndex.FILE);
    RepairEvidence kept = new RepairEvidence();
    List<String> fromCleanIndex = new ArrayList<>();
    TaskIndex built;
    try (JournalTail tail = new JournalTail(index, JournalTail.RUN_BYTES)) {
      long base = scan.basisSequence();
      JournalSalvage.read(folder.resolve(Journal.FOLDER),
          maxRecordBytes, new JournalSalvage.Visitor() {
            @Override
            public void record(long sequence, byte[] payload) throws IOException {
              StoreEvent event = RepairScan.decode(payload);
              if (sequence > base && event != null) {
                tail.add(sequence, event);
                kept.journal(event);
              }
            }

            @Override
            public void damaged(JournalSalvage.Damage damage) {
              // Counted by the scan already.
            }
          });
      built = TaskIndex.fromSnapshot(index,
          each -> basis(e -> each.accept(new SnapshotRecord.Event(e)), kept, fromCleanIndex),
          tail);
    }
    long last = scan.lastRecord();
    Set<String> hinted = new HashSet<>(scan.hintedTasks().keySet());
    List<LostTask> lost = new ArrayList<>();
    TreeMap<String, Integer> unregistered = new TreeMap<>();
    long tasks;
    try {
      SnapshotFile.Info info = SnapshotFile.write(stage.resolve(RepairFolders.NEW_SNAPSHOT),
          last, new IndexRecords(built, t -> {
            hinted.remove(t.task().id());
            lostOf(t, kept.get(t.task().id()), lost);
            // The clean index holds every registration; without it one may have been lost.
            if (!t.registered() && !scan.basedOnCleanIndex()) {
              unregistered.merge("machine " + t.task().machine() + " version "
                  + t.task().version(), 1, Integer::sum);
            }
          }));
      tasks = info.records() - built.allVersions().size();
    } finally {
      built.close();
    }
    for (String id : new TreeSet<>(hinted)) {
      lost.add(new LostTask(id, true, false, List.of(), 0));
    }
    lost.sort((a, b) -> a.id().compareTo(b.id()));
    List<String> versions = new ArrayList<>();
    unregistered.forEach((v, n) -> versions.add(v + ": its registration (" + n + " task"
        + (n == 1 ? " uses" : "s use") + " it)"));
    try (var spills = Files.newDirectoryStream(stage, "*.spill")) {
      for (Path spill : spills) {
        Files.delete(spill);
      }
    }
    Files.delete(index);
    JournalSalvage.createEmpty(stage.resolve(RepairFolders.NEW_JOURNAL), last + 1);
    RepairReport draft = new RepairReport(folder, scan.damage(), scan.missingRecords(),
        scan.lostRecords(), scan.basis(), tasks, last, fromCleanIndex, lost, versions,
        Optional.empty(), List.of());
    // The clean index is an original too: closed before it is moved aside.
    scan.close();
    Path committedName = folder.resolve(RepairFolders.PREFIX + time);
    RepairReport report = withFolder(draft, committedName);
    StoreFiles.writeAtomically(stage.resolve(RepairFolders.REPORT),
        (String.join("\n", report.lines()) + "\n").getBytes(StandardCharsets.UTF_8));
    Path committed = RepairFolders.commit(folder, stage, time);
    RepairFolders.swap(folder, committed);
    return committed.equals(committedName) ? report : withFolder(draft, committed);
  }

  /** Feeds the basis (the clean index, or the snapshot's sound records) to a rebuild. */
  private void basis(Consumer<StoreEvent> each, RepairEvidence kept, List<String> fromIndex)
      throws IOException {
    TaskIndex clean = scan.cleanIndex();
    if (clean != null) {
      for (MachineVersion v : clean.allVersions()) {
        each.accept(new StoreEvent.Registered(v));
      }
      String lastId = clean.lastTaskId();
      if (lastId == null) {
        return;
      }
      for (var it = clean.tasksBetween(null, lastId); it.hasNext(); ) {
        Task t = it.next();
        int length = clean.historyLength(t.id());
        kept.base(t.id(), length);
        RepairEvidence.Of salvaged = scan.salvaged().get(t.id());
        if (salvaged == null || salvaged.creationLost()
            || !salvaged.missingBelow(length).isEmpty()) {
          fromIndex.add(t.id());
        }
        each.accept(new StoreEvent.Restored(t, clean.history(t.id())));
      }
      return;
    }
    if (!scan.snapshotUsable()) {
      return;
    }
    try {
      SnapshotSalvage.read(folder.resolve(SnapshotFile.NAME), new SnapshotSalvage.Visitor() {
        @Override
        public void record(long offset, byte[] payload) {
          StoreEvent event = RepairScan.decode(payload);
          if (event instanceof StoreEvent.Restored r) {
            kept.base(r.task().id(), r.history().size());
            each.accept(event);
          } else if (event instanceof StoreEvent.Registered) {
            each.accept(event);
          }
        }

        @Override
        public void damaged(JournalSalvage.Damage damage) {
          // Counted by the scan already.
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Adds what {@code t} lost, if anything, to {@code lost}. */
  private void lostOf(IndexRecords.Kept t, RepairEvidence.Of evidence, List<LostTask> lost) {
    String id = t.task().id();
    TreeSet<Integer> missing = new TreeSet<>();
    int length = 0;
    boolean creationLost = false;
    if (evidence != null) {
      length = evidence.length();
      missing.addAll(evidence.missingBelow(length));
      creationLost = evidence.creationLost();
    }
    // A damaged record that still reads as an entry of this task the evidence lacks.
    for (int place : scan.hintedTasks().getOrDefault(id, Set.of())) {
      if (evidence == null || place >= evidence.baseLength && !evidence.places.get(place)) {
        missing.add(place);
        length = Math.max(length, place + 1);
      }
    }
    if (creationLost || !missing.isEmpty()) {
      lost.add(new LostTask(id, false, creationLost,
          missing.stream().map(p -> p + 1).toList(), length));
    }
  }

  private static RepairReport withFolder(RepairReport r, Path damagedFolder) {
    return new RepairReport(r.folder(), r.damage(), r.missingRecords(), r.lostRecords(),
        r.basis(), r.tasksKept(),
        r.lastRecord(), r.fromCleanIndex(), r.lostTasks(), r.lostVersions(),
        Optional.of(damagedFolder), r.resumed());
  }
}
