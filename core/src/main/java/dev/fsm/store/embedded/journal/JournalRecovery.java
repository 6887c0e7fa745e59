package dev.fsm.store.embedded.journal;

import dev.fsm.files.StoreFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Opening a journal folder: one sequential pass over every segment, then cutting a torn tail or
 * refusing damage that would drop later records.
 */
final class JournalRecovery {

  /** The state a journal opens with. */
  record Opened(TreeMap<Long, Path> segments, long lastSequence, long lastSegmentSize,
      Recovery recovery, Optional<JournalSeal> sealed) {

    Opened(TreeMap<Long, Path> segments, long lastSequence, long lastSegmentSize,
        Recovery recovery) {
      this(segments, lastSequence, lastSegmentSize, recovery, Optional.empty());
    }
  }

  /** One segment's verified prefix. */
  private record Scan(long first, Path file, long size, long last, long goodBytes, String damage,
      boolean headerTorn) {

    long records() {
      return last - first + 1;
    }
  }

  /**
   * The newest record known durable from outside the journal's frames, and what says so.
   *
   * @param sequence 0 when nothing vouches for any record
   * @param by the phrase a refusal gives, as in "but {@code by}: records ... are not there"
   */
  record Acknowledged(long sequence, String by) {

    static final Acknowledged NONE = new Acknowledged(0, "nothing vouched for any record");

    /** A clean close at {@code sequence}. */
    static Acknowledged cleanClose(long sequence) {
      return sequence <= 0 ? NONE : new Acknowledged(sequence, String.format(Locale.ROOT,
          "the store was closed cleanly at record %d", sequence));
    }

    /** This one, or the journal's own note of how far it got when that is further. */
    Acknowledged orReached(OptionalLong reached) {
      if (reached.isEmpty() || reached.getAsLong() <= sequence) {
        return this;
      }
      long r = reached.getAsLong();
      return new Acknowledged(r, String.format(Locale.ROOT, "the journal had made record %d"
          + " durable (its note %s says so; fsm writes it each second and at close)", r,
          ReachedMark.FILE));
    }
  }

  /** What a refusal tells the user to do. */
  static final String REPAIR = "Run `fsm store repair` to keep every record that can be proven"
      + " and report exactly what is lost, or restore the store folder from a backup.";

  private JournalRecovery() {}

  static Opened recover(Path folder, JournalOptions options) throws IOException {
    return recover(folder, options, Acknowledged.NONE);
  }

  /**
   * Opens the journal, refusing damage: anything but a torn tail, which is bytes at the end of
   * the last segment with no sound later record after them, and which leaves every record up to
   * {@code acknowledged} (known durable from elsewhere, such as a clean close) in place.
   */
  static Opened recover(Path folder, JournalOptions options, Acknowledged acknowledged)
      throws IOException {
    TreeMap<Long, Path> segments = Segments.list(folder);
    if (segments.isEmpty()) {
      if (acknowledged.sequence() > 0) {
        throw new JournalDamagedException(String.format(Locale.ROOT, "the journal folder %s"
            + " holds no segment, but %s: its records are missing. fsm changed nothing. %s",
            folder, acknowledged.by(), REPAIR), folder, 0, "no segments");
      }
      segments.put(1L, Segments.createEmpty(folder, 1));
      return new Opened(segments, 0, Segments.HEADER_BYTES,
          new Recovery(1, 1, 0, Optional.empty(), List.of(), 0));
    }

    List<Scan> scans = scanAll(segments, options);
    Damage found = firstDamage(scans);
    int damaged = found.segment();
    String reason = found.reason();
    if (!options.acceptDamage()) {
      refuseDamage(scans, damaged, reason, acknowledged, options.maxRecordBytes());
    }

    Optional<Cut> cut = Optional.empty();
    List<Path> deleted = new ArrayList<>();
    long deletedRecords = 0;
    long lastSize;
    if (damaged < 0) {
      lastSize = scans.get(scans.size() - 1).size();
    } else {
      Scan d = scans.get(damaged);
      deletedRecords = records(scans.subList(damaged + 1, scans.size()));
      // Newest first, so a crash in between leaves the same damage to find next time.
      for (int i = scans.size() - 1; i > damaged; i--) {
        Scan s = scans.get(i);
        Files.delete(s.file());
        segments.remove(s.first());
        deleted.add(s.file());
      }
      Collections.reverse(deleted);
      lastSize = cut(d);
      Segments.fsyncFolder(folder);
      scans = scans.subList(0, damaged + 1);
      boolean emptyNewSegment = d.headerTorn() && d.size() == 0 && deleted.isEmpty();
      if (!emptyNewSegment) {
        cut = Optional.of(new Cut(d.file(), d.goodBytes(), d.size() - d.goodBytes(), reason));
      }
    }
    Scan last = scans.get(scans.size() - 1);
    Recovery recovery = new Recovery(segments.size(), scans.get(0).first(), last.last(), cut,
        deleted, deletedRecords);
    return new Opened(segments, last.last(), lastSize, recovery);
  }

  /**
   * Opens the journal as {@link #recover(Path, JournalOptions, long)} does, but without decoding
   * a frame when it still holds the seal of the clean close at {@code acknowledged}: every byte
   * is then as that close left it, after the open before it verified or wrote each one.
   */
  static Opened recover(Path folder, JournalOptions options, Acknowledged acknowledged,
      Optional<JournalSeal> seal) throws IOException {
    Optional<Opened> sealed = seal.isEmpty() ? Optional.empty()
        : sealed(folder, seal.get(), acknowledged.sequence());
    return sealed.isPresent() ? sealed.get() : recover(folder, options, acknowledged);
  }

  /** The journal as sealed, when it holds the seal and the seal fits the record it closed at. */
  private static Optional<Opened> sealed(Path folder, JournalSeal seal, long acknowledged)
      throws IOException {
    List<JournalSeal.Segment> sealed = seal.segments();
    if (sealed.isEmpty() || sealed.get(sealed.size() - 1).first() > acknowledged + 1) {
      return Optional.empty();
    }
    TreeMap<Long, Path> segments = Segments.list(folder);
    if (!seal.holds(segments)) {
      return Optional.empty();
    }
    JournalSeal.Segment last = sealed.get(sealed.size() - 1);
    return Optional.of(new Opened(segments, acknowledged, last.bytes(), new Recovery(
        segments.size(), sealed.get(0).first(), acknowledged, Optional.empty(), List.of(), 0),
        Optional.of(seal)));
  }

  /**
   * The last record of a journal that opens with nothing to change: the sealed record when the
   * journal holds its seal, else every frame verified as {@link #recover} does, and damage
   * refused with the same exceptions; empty when opening would write (a torn tail to cut, or no
   * segment yet), so the caller opens it the writing way.
   */
  static OptionalLong soundEnd(Path folder, JournalOptions options, Acknowledged acknowledged,
      Optional<JournalSeal> seal) throws IOException {
    if (seal.isPresent() && sealed(folder, seal.get(), acknowledged.sequence()).isPresent()) {
      return OptionalLong.of(acknowledged.sequence());
    }
    TreeMap<Long, Path> segments = Segments.list(folder);
    if (segments.isEmpty()) {
      return OptionalLong.empty();
    }
    List<Scan> scans = scanAll(segments, options);
    Damage found = firstDamage(scans);
    refuseDamage(scans, found.segment(), found.reason(), acknowledged,
        options.maxRecordBytes());
    return found.segment() < 0 ? OptionalLong.of(scans.get(scans.size() - 1).last())
        : OptionalLong.empty();
  }

  private static List<Scan> scanAll(TreeMap<Long, Path> segments, JournalOptions options)
      throws IOException {
    List<Scan> scans = new ArrayList<>();
    for (Map.Entry<Long, Path> e : segments.entrySet()) {
      scans.add(scan(e.getValue(), e.getKey(), options.maxRecordBytes()));
    }
    return scans;
  }

  /** The first damaged segment (-1 for none) and why: bad bytes, or a gap before the next. */
  private record Damage(int segment, String reason) {}

  private static Damage firstDamage(List<Scan> scans) {
    for (int i = 0; i < scans.size(); i++) {
      Scan s = scans.get(i);
      if (s.damage() != null) {
        return new Damage(i, s.damage());
      } else if (i + 1 < scans.size() && scans.get(i + 1).first() != s.last() + 1) {
        return new Damage(i, gap(s, scans.get(i + 1)));
      }
    }
    return new Damage(-1, null);
  }

  /**
   * Throws unless the journal is sound or ends in a torn tail: damage followed by a later
   * segment or by a sound later record in its own segment, or a journal that would end before
   * {@code acknowledged}, is acknowledged data that cutting would drop.
   */
  private static void refuseDamage(List<Scan> scans, int damaged, String reason,
      Acknowledged acknowledged, int maxRecordBytes) throws IOException {
    Scan last = scans.get(scans.size() - 1);
    if (damaged >= 0 && damaged < scans.size() - 1) {
      Scan d = scans.get(damaged);
      throw damagedException(d, reason, scans.subList(damaged + 1, scans.size()));
    }
    if (damaged >= 0) {
      FrameScan bytes = FrameScan.of(last.file(), maxRecordBytes);
      FrameScan.Frame after = bytes.next(last.headerTorn() ? Segments.HEADER_BYTES
          : last.goodBytes() + 1, last.last());
      if (after != null) {
        throw new JournalDamagedException(String.format(Locale.ROOT, "journal segment %s is"
            + " damaged at byte %d (%s), and a sound later record, %d, follows at byte %d: this"
            + " is not a torn tail, so fsm opened nothing and changed nothing. %s", last.file(),
            last.goodBytes(), reason, after.sequence(), after.offset(), REPAIR), last.file(),
            last.goodBytes(), reason);
      }
    }
    if (acknowledged.sequence() > last.last()) {
      String what = damaged >= 0 ? String.format(Locale.ROOT, "is damaged at byte %d (%s)"
          + " after record %d", last.goodBytes(), reason, last.last())
          : String.format(Locale.ROOT, "ends at byte %d after record %d", last.size(),
              last.last());
      throw new JournalDamagedException(String.format(Locale.ROOT, "journal segment %s %s, but"
          + " %s: records %d to %d were acknowledged and are not there, so fsm opened nothing"
          + " and changed nothing. %s", last.file(), what, acknowledged.by(), last.last() + 1,
          acknowledged.sequence(), REPAIR), last.file(),
          damaged >= 0 ? last.goodBytes() : last.size(),
          damaged >= 0 ? reason : "records missing at the end");
    }
  }

  private static Scan scan(Path file, long first, int maxRecordBytes) throws IOException {
    try (SegmentReader r = new SegmentReader(file, maxRecordBytes)) {
      String torn = r.readHeader(first);
      if (torn != null) {
        return new Scan(first, file, r.size(), first - 1, 0, torn, true);
      }
      long sequence = first;
      while (r.next(sequence, false)) {
        sequence++;
      }
      return new Scan(first, file, r.size(), sequence - 1, r.frameOffset(), r.damage(), false);
    }
  }

  /** Cuts the segment after its last good frame; returns its new size. */
  private static long cut(Scan s) throws IOException {
    try (FileChannel c = StoreFiles.open(s.file(), StandardOpenOption.WRITE)) {
      if (s.headerTorn()) {
        c.truncate(0);
        Segments.writeFully(c, Segments.header(s.first()), 0);
        c.force(true);
        return Segments.HEADER_BYTES;
      }
      if (s.goodBytes() < s.size()) {
        c.truncate(s.goodBytes());
        c.force(true);
      }
      return s.goodBytes();
    }
  }

  private static String gap(Scan s, Scan next) {
    String name = next.file().getFileName().toString();
    if (next.first() > s.last() + 1) {
      return String.format(Locale.ROOT, "records %d to %d are missing: the next segment, %s,"
          + " starts at record %d", s.last() + 1, next.first() - 1, name, next.first());
    }
    return String.format(Locale.ROOT, "the next segment, %s, starts at record %d, but this one"
        + " already holds records up to %d", name, next.first(), s.last());
  }

  private static long records(List<Scan> scans) {
    long n = 0;
    for (Scan s : scans) {
      n += s.records();
    }
    return n;
  }

  private static JournalDamagedException damagedException(Scan d, String reason,
      List<Scan> later) {
    long laterRecords = records(later);
    StringBuilder m = new StringBuilder(String.format(Locale.ROOT,
        "journal segment %s is damaged at byte %d (%s). ", d.file(), d.goodBytes(), reason));
    m.append(String.format(Locale.ROOT, "%d later segment%s hold%s %d record%s", later.size(),
        later.size() == 1 ? "" : "s", later.size() == 1 ? "s" : "", laterRecords,
        laterRecords == 1 ? "" : "s"));
    if (laterRecords > 0) {
      m.append(String.format(Locale.ROOT, " (%d to %d)", later.get(0).first(),
          later.get(later.size() - 1).last()));
    }
    long after = d.size() - d.goodBytes();
    if (after > 0) {
      m.append(String.format(Locale.ROOT, ", and %d byte%s follow the damage in this segment",
          after, after == 1 ? "" : "s"));
    }
    m.append("; opening the journal would drop them, so fsm opened nothing and changed nothing. ")
        .append(REPAIR);
    return new JournalDamagedException(m.toString(), d.file(), d.goodBytes(), reason);
  }
}
