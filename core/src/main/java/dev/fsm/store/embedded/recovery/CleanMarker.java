package dev.fsm.store.embedded.recovery;

import dev.fsm.files.StoreFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;

/**
 * {@code index.clean} in the store folder: written at a clean close, once the index is on disk,
 * holding the last journal record the index reflects. Opening takes it away before anything is
 * written, so after a crash from then on there is none and the index is rebuilt.
 */
public final class CleanMarker {

  public static final String FILE = "index.clean";

  private static final String KEY = "journal-record=";

  private CleanMarker() {}

  /**
   * Reads the marker and deletes it durably.
   *
   * @return the journal record it names; empty when there is none or it is unreadable
   */
  static OptionalLong take(Path folder) throws IOException {
    Path file = folder.resolve(FILE);
    if (!Files.exists(file)) {
      return OptionalLong.empty();
    }
    OptionalLong sequence = peek(folder);
    Files.delete(file);
    fsync(folder);
    return sequence;
  }

  /**
   * Reads the marker, leaving it in place.
   *
   * @return the journal record it names; empty when there is none or it is unreadable
   */
  public static OptionalLong peek(Path folder) throws IOException {
    try {
      String text = Files.readString(folder.resolve(FILE), StandardCharsets.UTF_8).strip();
      return text.startsWith(KEY)
          ? OptionalLong.of(Long.parseLong(text.substring(KEY.length()))) : OptionalLong.empty();
    } catch (NoSuchFileException e) {
      return OptionalLong.empty();
    } catch (NumberFormatException | CharacterCodingException e) {
      return OptionalLong.empty();
    }
  }

  /** Writes the marker atomically: a crash leaves either no marker or a whole one. */
  public static void write(Path folder, long sequence) throws IOException {
    StoreFiles.writeAtomically(folder.resolve(FILE),
        (KEY + sequence + "\n").getBytes(StandardCharsets.UTF_8));
    fsync(folder);
  }

  /** Forces a file, or a folder's entries, to disk. */
  public static void fsync(Path path) throws IOException {
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
