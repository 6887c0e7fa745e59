package dev.fsm.store.embedded.repair;

import dev.fsm.FsmException;
import dev.fsm.files.StoreFiles;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.SnapshotFile;
import dev.fsm.store.embedded.recovery.CleanMarker;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;

/**
 * Where a repair stages and swaps files, so that a kill at any point leaves a store that the
 * next repair finishes or starts again. The new files are staged in {@code repair.tmp/}; renaming
 * it to {@code damaged-<time>/} commits the repair; the damaged originals are then moved into it
 * and the new journal and snapshot moved out. While a committed folder still holds {@code
 * repaired-snapshot}, the swap is unfinished and opening the store is refused.
 */
public final class RepairFolders {

  static final String STAGE = "repair.tmp";
  static final String PREFIX = "damaged-";
  public static final String NEW_SNAPSHOT = "repaired-snapshot";
  public static final String NEW_JOURNAL = "repaired-journal";
  static final String REPORT = "repair-report.txt";

  /** The store's files a repair replaces, in the order they are moved aside. */
  private static final List<String> ORIGINALS = List.of(Journal.FOLDER, SnapshotFile.NAME,
      TaskIndex.FILE, CleanMarker.FILE);

  private RepairFolders() {}

  /** The committed repair folder whose swap was cut short, if any. */
  static Optional<Path> unfinished(Path store) throws IOException {
    if (!Files.isDirectory(store)) {
      return Optional.empty();
    }
    try (DirectoryStream<Path> found = Files.newDirectoryStream(store, PREFIX + "*")) {
      for (Path d : found) {
        if (Files.exists(d.resolve(NEW_SNAPSHOT))) {
          return Optional.of(d);
        }
      }
    }
    return Optional.empty();
  }

  /** Refuses to open a store whose repair was cut short: the next repair finishes it. */
  public static void refuseUnfinished(Path store) {
    try {
      Optional<Path> d = unfinished(store);
      if (d.isPresent()) {
        throw new FsmException("store " + store + " is in the middle of a repair that was"
            + " interrupted (" + d.get().getFileName() + " holds its result); run `fsm store"
            + " repair` to finish it before using the store");
      }
    } catch (IOException e) {
      throw new FsmException("cannot read store folder " + store + ": " + e.getMessage(), e);
    }
  }

  /** A new, empty staging folder; one a killed repair left before committing is removed. */
  static Path stage(Path store) throws IOException {
    Path stage = store.resolve(STAGE);
    deleteTree(stage);
    StoreFiles.createFolder(stage);
    return stage;
  }

  /** Commits a staged repair; returns the folder that now holds it. */
  static Path commit(Path store, Path stage, String time) throws IOException {
    Path committed = store.resolve(PREFIX + time);
    for (int n = 2; Files.exists(committed); n++) {
      committed = store.resolve(PREFIX + time + "-" + n);
    }
    CleanMarker.fsync(stage);
    Files.move(stage, committed, StandardCopyOption.ATOMIC_MOVE);
    CleanMarker.fsync(store);
    return committed;
  }

  /**
   * Moves the damaged originals into the committed folder and the new journal and snapshot out
   * of it. Every step is a rename that a rerun skips once done: an original is moved only while
   * the new file that replaces it is still staged.
   */
  static void swap(Path store, Path committed) throws IOException {
    boolean journalStaged = Files.exists(committed.resolve(NEW_JOURNAL));
    for (String name : ORIGINALS) {
      Path original = store.resolve(name);
      boolean replaced = name.equals(Journal.FOLDER) && !journalStaged;
      if (!replaced && Files.exists(original) && !Files.exists(committed.resolve(name))) {
        Files.move(original, committed.resolve(name), StandardCopyOption.ATOMIC_MOVE);
      }
    }
    CleanMarker.fsync(store);
    if (journalStaged) {
      Files.move(committed.resolve(NEW_JOURNAL), store.resolve(Journal.FOLDER),
          StandardCopyOption.ATOMIC_MOVE);
      CleanMarker.fsync(store);
    }
    // Last: its absence is what says the swap is done.
    Files.move(committed.resolve(NEW_SNAPSHOT), store.resolve(SnapshotFile.NAME),
        StandardCopyOption.ATOMIC_MOVE);
    CleanMarker.fsync(store);
    CleanMarker.fsync(committed);
  }

  public static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        if (e != null) {
          throw e;
        }
        Files.delete(dir);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
