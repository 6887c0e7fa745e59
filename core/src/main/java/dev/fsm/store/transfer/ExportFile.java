package dev.fsm.store.transfer;

import dev.fsm.FsmException;
import dev.fsm.files.DiskFailure;
import dev.fsm.files.StoreFiles;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The file an export is written to: first a hidden temporary file beside it, readable by its
 * owner only (tasks' contexts may hold secrets), made durable and renamed over the name only
 * when the export is whole, so a failed or interrupted export never leaves a file that looks
 * like one. An existing file is replaced only when asked.
 */
public final class ExportFile implements AutoCloseable {

  private final Path file;
  private final Path temp;
  private final FileChannel channel;
  private final Writer writer;
  private boolean done;

  private ExportFile(Path file, Path temp, FileChannel channel) {
    this.file = file;
    this.temp = temp;
    this.channel = channel;
    this.writer = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(channel),
        StandardCharsets.UTF_8), 1 << 16);
  }

  /**
   * Starts writing {@code file}.
   *
   * @param replace whether an existing file may be replaced ({@code --force})
   * @throws FsmException when it exists and {@code replace} is false, is a folder, or its
   *     folder is missing or not writable
   */
  public static ExportFile create(Path file, boolean replace) {
    if (Files.isDirectory(file)) {
      throw new FsmException(file + " is a folder; name a file in it, such as "
          + file.resolve("fsm-export.jsonl"));
    }
    if (Files.exists(file) && !replace) {
      throw new FsmException(file + " exists already; name another file, or pass --force to"
          + " replace it");
    }
    Path parent = file.toAbsolutePath().getParent();
    if (!Files.isDirectory(parent)) {
      throw new FsmException("cannot write " + file + ": folder " + parent + " does not exist;"
          + " create it first or name another file");
    }
    Path temp = null;
    try {
      temp = Files.createTempFile(parent, "." + file.getFileName() + ".", ".partial",
          PosixFilePermissions.asFileAttribute(StoreFiles.FILE_MODE));
      // An export stopped by Ctrl-C or a kill (not -9) takes its partial file with it.
      temp.toFile().deleteOnExit();
      return new ExportFile(file, temp, FileChannel.open(temp, StandardOpenOption.WRITE));
    } catch (IOException | UnsupportedOperationException e) {
      deleteQuietly(temp);
      throw DiskFailure.of(file, "cannot write " + file, e);
    }
  }

  /** Where the export's text goes. */
  public Writer writer() {
    return writer;
  }

  /** Makes the export durable and gives it its name. */
  public void commit() {
    try {
      writer.flush();
      channel.force(true);
      channel.close();
      try {
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
      }
      done = true;
      try (FileChannel folder = FileChannel.open(file.toAbsolutePath().getParent())) {
        folder.force(true);
      } catch (IOException e) {
        // Some file systems cannot sync a folder; the file itself is on disk.
      }
    } catch (IOException e) {
      throw DiskFailure.of(file, "cannot write " + file, e);
    }
  }

  /** Deletes the temporary file unless {@link #commit} gave it its name. */
  @Override
  public void close() {
    if (!done) {
      try {
        channel.close();
      } catch (IOException e) {
        // Being abandoned; the delete below is what matters.
      }
      deleteQuietly(temp);
    }
  }

  private static void deleteQuietly(Path temp) {
    if (temp != null) {
      try {
        Files.deleteIfExists(temp);
      } catch (IOException e) {
        // Nothing more can be done; it is hidden and named .partial.
      }
    }
  }
}
