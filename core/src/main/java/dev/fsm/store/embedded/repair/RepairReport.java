package dev.fsm.store.embedded.repair;

import dev.fsm.store.embedded.journal.SnapshotFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What {@code fsm store repair} found, kept and could not recover.
 *
 * @param folder the store
 * @param damage the bad bytes found, file by file
 * @param missingRecords journal records after the snapshot that no sound record holds, as ranges
 * @param lostRecords those of them that the clean index does not cover either
 * @param basis what the kept state was built on: the clean index, the snapshot, or neither
 * @param tasksKept how many tasks the repaired store holds
 * @param lastRecord the journal record the repaired store's snapshot covers
 * @param fromCleanIndex tasks whose records are damaged or missing but that the clean index held
 * @param lostTasks tasks with something that could not be recovered
 * @param lostVersions machine versions whose registration was lost though tasks use them
 * @param damagedFolder where the damaged originals were moved; empty when nothing changed
 * @param resumed the report of an interrupted repair this run finished, as that repair saved
 *     it (then every other field is empty); empty when this run did the whole repair
 */
public record RepairReport(Path folder, List<Damaged> damage, List<Range> missingRecords,
    List<Range> lostRecords,
    String basis, long tasksKept, long lastRecord, List<String> fromCleanIndex,
    List<LostTask> lostTasks, List<String> lostVersions, Optional<Path> damagedFolder,
    List<String> resumed) {

  /**
   * Bad bytes in one file.
   *
   * @param readAs what the bad bytes decode to, if they still do (not trusted, not kept)
   */
  public record Damaged(Path file, long offset, long length, String reason,
      Optional<String> readAs) {}

  /** Journal records {@code from} to {@code to}, both included. */
  public record Range(long from, long to) {

    @Override
    public String toString() {
      return from == to ? "record " + from : "records " + from + " to " + to;
    }
  }

  /**
   * A task that could not be recovered whole.
   *
   * @param id the task
   * @param wholly true when nothing of it could be recovered: only damaged bytes name it
   * @param creationLost true when the record that created it is lost and its state comes from a
   *     later record
   * @param lostEntries the history entries lost, numbered from 1 as {@code fsm history} shows them
   * @param entries how many history entries it had, as far as the evidence shows
   */
  public record LostTask(String id, boolean wholly, boolean creationLost,
      List<Integer> lostEntries, int entries) {

    /** What was lost, in words. */
    public String summary() {
      if (wholly) {
        return "task " + id + ": everything (only damaged bytes name it)";
      }
      List<String> parts = new ArrayList<>();
      if (creationLost) {
        parts.add("its creation (its state comes from a later record)");
      }
      if (!lostEntries.isEmpty()) {
        parts.add(String.format(Locale.ROOT, "history entr%s %s (of %d)",
            lostEntries.size() == 1 ? "y" : "ies", numbers(lostEntries), entries));
      }
      return "task " + id + ": " + String.join(" and ", parts);
    }
  }

  public RepairReport {
    damage = List.copyOf(damage);
    missingRecords = List.copyOf(missingRecords);
    lostRecords = List.copyOf(lostRecords);
    fromCleanIndex = List.copyOf(fromCleanIndex);
    lostTasks = List.copyOf(lostTasks);
    lostVersions = List.copyOf(lostVersions);
    resumed = List.copyOf(resumed);
  }

  /** The report of a run that finished an interrupted repair, whose saved report is given. */
  static RepairReport resumed(Path folder, Path damagedFolder, List<String> saved) {
    return new RepairReport(folder, List.of(), List.of(), List.of(), "", 0, 0, List.of(),
        List.of(),
        List.of(), Optional.of(damagedFolder), saved);
  }

  /** How {@link #basis} begins when the repair built on the clean index. */
  static final String CLEAN_INDEX = "the clean index";

  /** True when the store was found sound and left as it was. */
  public boolean sound() {
    return damage.isEmpty() && missingRecords.isEmpty() && resumed.isEmpty();
  }

  /** True when nothing is known to be lost. */
  public boolean nothingLost() {
    return lostRecords.isEmpty() && lostTasks.isEmpty() && lostVersions.isEmpty()
        && snapshotDamage().isEmpty();
  }

  /**
   * Damaged stretches of the snapshot a repair built on: each held task records, whose tasks
   * its bytes may not name. None when the repair built on the clean index, which held them.
   */
  private List<Damaged> snapshotDamage() {
    if (basis.startsWith(CLEAN_INDEX)) {
      return List.of();
    }
    return damage.stream().filter(d -> d.length() > 0 && d.file().getFileName() != null
        && d.file().getFileName().toString().equals(SnapshotFile.NAME)).toList();
  }

  /** The report as lines of text, as {@code fsm store repair} prints it. */
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    if (sound()) {
      lines.add("store " + folder + ": no damage found; nothing changed");
      return lines;
    }
    if (!resumed.isEmpty()) {
      lines.add("store " + folder + ": finished a repair that was interrupted; its report, as"
          + " saved in " + damagedFolder.orElseThrow().resolve(RepairFolders.REPORT) + ":");
      resumed.forEach(l -> lines.add("  " + l));
      return lines;
    }
    String found = damage.isEmpty() ? "" : damage.size() + " damaged stretch"
        + (damage.size() == 1 ? "" : "es") + " found";
    String missing = missingRecords.isEmpty() ? "" : "journal records missing";
    lines.add("store " + folder + ": " + found + (found.isEmpty() || missing.isEmpty() ? ""
        : ", ") + missing);
    for (Damaged d : damage) {
      lines.add(d.length() == 0 ? "  damaged: " + d.file() + " (" + d.reason() + ")"
          : String.format(Locale.ROOT, "  damaged: %s at byte %d, %d byte%s (%s)%s",
          d.file(), d.offset(), d.length(), d.length() == 1 ? "" : "s", d.reason(),
          d.readAs().map(r -> "; its bytes read as " + r).orElse("")));
    }
    for (Range r : missingRecords) {
      lines.add(lostRecords.contains(r) ? "  lost: journal " + r
          : "  missing: journal " + r + (lostRecords.stream().anyMatch(l -> l.from() >= r.from()
              && l.to() <= r.to()) ? " (partly held by the clean index)"
              : " (the clean index holds what " + (r.from() == r.to() ? "it" : "they")
                  + " did)"));
    }
    lines.add(String.format(Locale.ROOT, "kept: %d task%s up to journal record %d, built on %s",
        tasksKept, tasksKept == 1 ? "" : "s", lastRecord, basis));
    if (!fromCleanIndex.isEmpty()) {
      lines.add("recovered from the clean index: " + String.join(", ", fromCleanIndex));
    }
    boolean snapshotLoss = !snapshotDamage().isEmpty();
    if (lostTasks.isEmpty() && lostVersions.isEmpty()) {
      if (lostRecords.isEmpty() && !snapshotLoss) {
        lines.add("could not recover: nothing");
      }
      if (!lostRecords.isEmpty()) {
        lines.add("could not recover: what the lost journal records held; no surviving record"
            + " shows which tasks they changed");
      }
      if (snapshotLoss) {
        lines.add("could not recover: the tasks the damaged snapshot bytes held, unless a later"
            + " journal record changed them; no surviving byte shows which tasks they were");
      }
    } else {
      lines.add("could not recover:");
      lostTasks.forEach(t -> lines.add("  " + t.summary()));
      lostVersions.forEach(v -> lines.add("  " + v));
      if (!lostRecords.isEmpty()) {
        // A lost record may have changed more than any surviving record or bad byte shows.
        lines.add("  anything else journal " + String.join(", ", lostRecords.stream()
            .map(Range::toString).toList()) + " held: the lines above are what surviving"
            + " records and damaged bytes show of them");
      }
      if (snapshotLoss) {
        lines.add("  any other task the damaged snapshot bytes held, unless a later journal"
            + " record changed it: the lines above are what those bytes show");
      }
    }
    damagedFolder.ifPresent(d -> lines.add("damaged originals kept in " + d));
    return lines;
  }

  /** "3", "3 and 5", "3 to 5", "1, 3 to 5 and 8". */
  public static String numbers(List<Integer> sorted) {
    List<String> runs = new ArrayList<>();
    for (int i = 0; i < sorted.size(); ) {
      int j = i;
      while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
        j++;
      }
      runs.add(i == j ? String.valueOf(sorted.get(i)) : sorted.get(i) + " to " + sorted.get(j));
      i = j + 1;
    }
    if (runs.size() == 1) {
      return runs.get(0);
    }
    return String.join(", ", runs.subList(0, runs.size() - 1)) + " and "
        + runs.get(runs.size() - 1);
  }
}
