package dev.fsm.store.embedded.recovery;

import dev.fsm.files.StoreFiles;
import dev.fsm.store.embedded.journal.JournalSeal;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code index.clean} in the store folder: written at a clean close, once the index is on disk,
 * holding the last journal record the index reflects and the journal's seal. Opening takes it
 * away before anything is written, so after a crash from then on there is none and the index is
 * rebuilt.
 */
public final class CleanMarker {

  public static final String FILE = "index.clean";

  private static final String KEY = "journal-record=";
  private static final String SEGMENT = "journal-segment=";

  /**
   * What a marker says.
   *
   * @param sequence the last journal record, which the index reflects
   * @param seal the journal's files as closed; empty from a marker written without one
   */
  public record Contents(long sequence, Optional<JournalSeal> seal) {}

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
    Optional<Contents> contents = read(folder);
    return contents.isPresent() ? OptionalLong.of(contents.get().sequence())
        : OptionalLong.empty();
  }

  /**
   * Reads the marker, leaving it in place.
   *
   * @return what it says; empty when there is none or its record line is unreadable. A seal
   *     line that does not parse drops the seal alone, which only makes a read check more.
   */
  public static Optional<Contents> read(Path folder) throws IOException {
    List<String> lines;
    try {
      lines = Files.readString(folder.resolve(FILE), StandardCharsets.UTF_8).strip().lines()
          .toList();
    } catch (NoSuchFileException | CharacterCodingException e) {
      return Optional.empty();
    }
    if (lines.isEmpty() || !lines.get(0).startsWith(KEY)) {
      return Optional.empty();
    }
    long sequence;
    try {
      sequence = Long.parseLong(lines.get(0).substring(KEY.length()).strip());
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    List<JournalSeal.Segment> segments = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      Optional<JournalSeal.Segment> segment = line.startsWith(SEGMENT)
          ? JournalSeal.Segment.parse(line.substring(SEGMENT.length())) : Optional.empty();
      if (segment.isEmpty()) {
        return Optional.of(new Contents(sequence, Optional.empty()));
      }
      segments.add(segment.get());
    }
    return Optional.of(new Contents(sequence,
        segments.isEmpty() ? Optional.empty() : Optional.of(new JournalSeal(segments))));
  }

  /** Writes the marker atomically: a crash leaves either no marker or a whole one. */
  public static void write(Path folder, long sequence, Optional<JournalSeal> seal)
      throws IOException {
    StringBuilder text = new StringBuilder(KEY).append(sequence).append('\n');
    seal.ifPresent(s -> s.segments().forEach(
        segment -> text.append(SEGMENT).append(segment.text()).append('\n')));
    StoreFiles.writeAtomically(folder.resolve(FILE), text.toString().getBytes(
        StandardCharsets.UTF_8));
    fsync(folder);
  }

  /** Forces a file, or a folder's entries, to disk. */
  public static void fsync(Path path) throws IOException {
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
