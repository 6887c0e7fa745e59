package dev.fsm.store.embedded.journal;

/**
 * How a journal is written and opened.
 *
 * @param segmentBytes a segment is closed and a new one started once it is this large
 * @param maxRecordBytes the largest record append accepts; when reading, a longer record length
 *     is taken as damage
 * @param acceptDamage when there is damage that is not a torn tail, cut the journal there and
 *     delete the later segments instead of refusing to open; for tests, since it drops
 *     acknowledged records (fsm itself refuses, and {@code fsm store repair} salvages)
 */
public record JournalOptions(long segmentBytes, int maxRecordBytes, boolean acceptDamage) {

  /** 64 MiB. */
  public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;

  /** 2 MiB. */
  public static final int DEFAULT_MAX_RECORD_BYTES = 2 << 20;

  /** The largest record limit that can be set: 256 MiB. */
  public static final int MAX_RECORD_LIMIT = 256 << 20;

  public JournalOptions {
    if (segmentBytes < 256) {
      throw new IllegalArgumentException("journal segmentBytes must be at least 256");
    }
    if (maxRecordBytes < 1 || maxRecordBytes > MAX_RECORD_LIMIT) {
      throw new IllegalArgumentException("journal maxRecordBytes must be between 1 and 256 MiB");
    }
  }

  /** 64 MiB segments, records up to 2 MiB, refuse to drop records after damage. */
  public static JournalOptions defaults() {
    return new JournalOptions(DEFAULT_SEGMENT_BYTES, DEFAULT_MAX_RECORD_BYTES, false);
  }

  /** These options with another segment size. */
  public JournalOptions segmentBytes(long bytes) {
    return new JournalOptions(bytes, maxRecordBytes, acceptDamage);
  }

  /** These options with another record size limit. */
  public JournalOptions maxRecordBytes(int bytes) {
    return new JournalOptions(segmentBytes, bytes, acceptDamage);
  }

  /** These options with another damage policy. */
  public JournalOptions acceptDamage(boolean accept) {
    return new JournalOptions(segmentBytes, maxRecordBytes, accept);
  }
}
