package dev.fsm.store.embedded.index;

import java.nio.file.Path;
import org.mapdb.DB;
import org.mapdb.DBMaker;

/**
 * An index file opened for MapDB: the database, and the volume under it (null for a file opened
 * only to be checked).
 */
public record IndexFile(DB db, PrivateFileVolume volume) {

  /**
   * Opens the index file for use: memory-mapped copy-on-write ({@link PrivateFileVolume}; reads
   * through a RandomAccessFile cost a system call per byte, and a shared mapping wrote every
   * change back to disk beside the journal), no transactions, no MapDB locking under the store's
   * own lock, and the nodes used last kept decoded ({@link NodeCache}).
   */
  public static IndexFile open(Path file) {
    PrivateFileVolume volume = PrivateFileVolume.open(file);
    try {
      return new IndexFile(NodeCache.db(volume, NodeCache.NODES), volume);
    } catch (RuntimeException | Error e) {
      volume.close();
      throw e;
    }
  }

  /**
   * Opens the index file to check it, through a FileChannel: when a damaged file makes the
   * checking thread loop, interrupting it closes the channel and its next read fails, which no
   * memory-mapped read would. Read-only, so that a check still starting after it was given up
   * on, when a rebuild may have replaced or removed the file, never creates or changes one.
   */
  public static DB openToCheck(Path file) {
    return DBMaker.fileDB(file.toFile()).fileChannelEnable().readOnly().concurrencyDisable()
        .make();
  }

  /**
   * Opens the index file to read only, mapped as for use: MapDB refuses every write, so a
   * read-only verb leaves the file exactly as the clean close that vouched for it left it.
   */
  public static IndexFile openToRead(Path file) {
    PrivateFileVolume volume = PrivateFileVolume.open(file);
    try {
      return new IndexFile(DBMaker.volumeDB(volume, true).readOnly().concurrencyDisable()
          .make(), volume);
    } catch (RuntimeException | Error e) {
      volume.close();
      throw e;
    }
  }
}
