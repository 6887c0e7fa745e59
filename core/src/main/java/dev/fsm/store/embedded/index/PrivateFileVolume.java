package dev.fsm.store.embedded.index;

import dev.fsm.files.StoreFiles;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.mapdb.DBException;
import org.mapdb.DataInput2;
import org.mapdb.volume.Volume;

/**
 * The index file as MapDB sees it: mapped copy-on-write ({@link FileChannel.MapMode#PRIVATE}),
 * so a change stays in memory and reaches the file only when the changed pages pass a budget
 * (the slices changed longest ago are written first) or when the index closes.
 *
 * <p>Why: with the file mapped shared, every change the index made was written back to disk,
 * about 2.7 KB of pages per transition against the journal's 320 bytes, and those writes queued
 * beside the journal's forces (measured with four writers: 90 MB of index pages in 4 s against
 * 62 MB of journal). The index needs none of them while the store is open, since it is rebuilt
 * from the journal after a crash; a page changed a hundred times is now written once, if at all.
 * The budget keeps memory bounded however many tasks are stored.
 *
 * <p>Writes are tracked per 4 KiB page. A written slice is mapped again afterwards, so its
 * private pages are given back; the old mapping is unmapped ({@link Mappings}) at the next
 * {@link #settle}, when no MapDB operation can still be reading it. Not thread-safe: the
 * index's lock guards it.
 */
final class PrivateFileVolume extends Volume {

  /**
   * Changed bytes kept in memory by default before the oldest are written to the file. A changed
   * private page is the process's own (anonymous) memory: 64 MiB put a runner at 1M tasks over
   * 256 MiB; 32 MiB kept it at 201-209 MiB with no loss of speed measured (issue 21).
   */
  static final long DEFAULT_BUDGET = 32L << 20;

  private static final int SLICE_SHIFT = 20;
  private static final int SLICE = 1 << SLICE_SHIFT;
  private static final int SLICE_MASK = SLICE - 1;
  private static final int PAGE_SHIFT = 12;
  private static final int PAGE = 1 << PAGE_SHIFT;
  private static final int PAGES_PER_SLICE = SLICE >>> PAGE_SHIFT;
  /** The slices written to most recently are never written out mid-operation. */
  private static final int RECENT_SLICES = 4;
  private static final Set<String> MEMORY_FILE_SYSTEMS = Set.of("tmpfs", "ramfs", "hugetlbfs");

  /**
   * Zeros for extending a file on a memory file system, where a page not yet backed is
   * allocated when a mapping first touches it: on a full tmpfs that fault is a SIGBUS, which the
   * JVM raises as an InternalError anywhere in MapDB. Written zeros are backed, or fail with an
   * IOException (no space left on device) here, where it can be reported.
   */
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(SLICE).asReadOnlyBuffer();

  private final File file;
  private final FileChannel channel;
  private final long budget;
  /** Whether growth must write zeros, not leave holes: see {@link #ZEROS}. */
  private final boolean backPages;
  private final Mappings mappings = Mappings.forThisJvm();
  private ByteBuffer[] slices;
  /** Changed pages per slice, a bit each; null where none changed. */
  private long[][] dirty;
  /** When each slice was last changed, as a count of changes. */
  private long[] changedAt;
  private long changes;
  private long dirtyPages;
  private long[] recent = new long[RECENT_SLICES];
  /** Mappings replaced by new ones, to unmap once no operation can hold them. */
  private final List<ByteBuffer> retired = new ArrayList<>();
  private long pagesWritten;

  private PrivateFileVolume(Path path, long budget) throws IOException {
    this.file = path.toFile();
    this.budget = budget;
    this.channel = StoreFiles.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    this.backPages = MEMORY_FILE_SYSTEMS.contains(Files.getFileStore(path).type());
    int count = (int) ((channel.size() + SLICE - 1) >>> SLICE_SHIFT);
    this.slices = new ByteBuffer[count];
    this.dirty = new long[count][];
    this.changedAt = new long[count];
    for (int i = 0; i < count; i++) {
      slices[i] = map(i);
    }
    Arrays.fill(recent, -1);
  }

  /** Opens or creates {@code path} with the default budget. */
  static PrivateFileVolume open(Path path) {
    return open(path, DEFAULT_BUDGET);
  }

  /** Opens or creates {@code path}, keeping up to {@code budget} changed bytes in memory. */
  static PrivateFileVolume open(Path path, long budget) {
    try {
      return new PrivateFileVolume(path, budget);
    } catch (IOException e) {
      throw new DBException.VolumeIOError(e);
    }
  }

  /** Changed bytes held in memory, not yet in the file. */
  long dirtyBytes() {
    return dirtyPages << PAGE_SHIFT;
  }

  /** Pages written to the file since it was opened. */
  long pagesWritten() {
    return pagesWritten;
  }

  /**
   * Unmaps the mappings replaced since the last call: call between MapDB operations only, when
   * none can still be reading through one.
   */
  void settle() {
    for (ByteBuffer b : retired) {
      mappings.unmap(b);
    }
    retired.clear();
  }

  /** Writes every changed page to the file (without forcing it). */
  void writeAll() {
    for (int i = 0; i < slices.length; i++) {
      if (dirty[i] != null) {
        writeSlice(i, false);
      }
    }
  }

  /** Grows or shrinks the per-slice arrays together. */
  private void resize(int count) {
    slices = Arrays.copyOf(slices, count);
    dirty = Arrays.copyOf(dirty, count);
    changedAt = Arrays.copyOf(changedAt, count);
  }

  private ByteBuffer map(int slice) throws IOException {
    return mappings.map(channel, (long) slice << SLICE_SHIFT, SLICE);
  }

  private ByteBuffer slice(long offset) {
    return slices[(int) (offset >>> SLICE_SHIFT)];
  }

  /** Notes a change of {@code length} bytes at {@code offset}, within one slice. */
  private void changed(long offset, int length) {
    int s = (int) (offset >>> SLICE_SHIFT);
    long[] bits = dirty[s];
    if (bits == null) {
      bits = new long[PAGES_PER_SLICE / 64];
      dirty[s] = bits;
    }
    int first = (int) (offset & SLICE_MASK) >>> PAGE_SHIFT;
    int last = (int) ((offset & SLICE_MASK) + Math.max(length, 1) - 1) >>> PAGE_SHIFT;
    for (int p = first; p <= last && p < PAGES_PER_SLICE; p++) {
      long bit = 1L << (p & 63);
      if ((bits[p >>> 6] & bit) == 0) {
        bits[p >>> 6] |= bit;
        dirtyPages++;
      }
    }
    changedAt[s] = ++changes;
    recent[(int) (changes % RECENT_SLICES)] = s;
    if (dirtyBytes() > budget) {
      writeOldest();
    }
  }

  /**
   * Writes the slices changed longest ago until a slice's worth of the budget is free: about 1
   * MiB at a time, so that neither this nor the force of the file that follows holds the
   * journal's forces up for long (written 4 MiB at a time, a force of them now and then delayed
   * half-load acknowledgements by 30-50 ms; 32 MiB at a time, by 40-190 ms).
   */
  private void writeOldest() {
    while (dirtyBytes() > budget - SLICE) {
      int oldest = -1;
      for (int i = 0; i < slices.length; i++) {
        if (dirty[i] != null && !isRecent(i) && (oldest < 0 || changedAt[i] < changedAt[oldest])) {
          oldest = i;
        }
      }
      if (oldest < 0) {
        return;
      }
      writeSlice(oldest, true);
    }
  }

  private boolean isRecent(int slice) {
    for (long r : recent) {
      if (r == slice) {
        return true;
      }
    }
    return false;
  }

  /**
   * Writes a slice's changed pages to the file; then, when {@code remap}, maps the slice again,
   * so the memory its private pages took is given back.
   */
  private void writeSlice(int s, boolean remap) {
    long[] bits = dirty[s];
    ByteBuffer view = slices[s].duplicate();
    long base = (long) s << SLICE_SHIFT;
    try {
      int p = 0;
      while (p < PAGES_PER_SLICE) {
        if ((bits[p >>> 6] & (1L << (p & 63))) == 0) {
          p++;
          continue;
        }
        int end = p;
        while (end < PAGES_PER_SLICE && (bits[end >>> 6] & (1L << (end & 63))) != 0) {
          end++;
        }
        view.limit(end << PAGE_SHIFT).position(p << PAGE_SHIFT);
        long at = base + ((long) p << PAGE_SHIFT);
        while (view.hasRemaining()) {
          at += channel.write(view, at);
        }
        dirtyPages -= end - p;
        pagesWritten += end - p;
        p = end;
      }
      dirty[s] = null;
      if (remap) {
        retired.add(slices[s]);
        slices[s] = map(s);
      }
    } catch (IOException e) {
      throw new DBException.VolumeIOError(e);
    }
  }

  @Override
  public void ensureAvailable(long offset) {
    int needed = (int) ((offset + SLICE - 1) >>> SLICE_SHIFT);
    if (needed <= slices.length) {
      return;
    }
    try {
      long size = (long) needed << SLICE_SHIFT;
      int old = slices.length;
      if (backPages) {
        for (long at = (long) old << SLICE_SHIFT; at < size; at += SLICE) {
          ByteBuffer zeros = ZEROS.duplicate();
          while (zeros.hasRemaining()) {
            channel.write(zeros, at + zeros.position());
          }
        }
      } else if (channel.size() < size) {
        // Extended sparse: new pages read as zeros without being written, and a disk file
        // system backs a page of a private mapping only when it is written out.
        channel.write(ByteBuffer.wrap(new byte[1]), size - 1);
      }
      resize(needed);
      for (int i = old; i < needed; i++) {
        slices[i] = map(i);
      }
    } catch (IOException e) {
      throw new DBException.VolumeIOError(e);
    }
  }

  @Override
  public void truncate(long size) {
    int keep = (int) ((size + SLICE - 1) >>> SLICE_SHIFT);
    if (keep >= slices.length) {
      ensureAvailable(size);
      return;
    }
    for (int i = keep; i < slices.length; i++) {
      if (dirty[i] != null) {
        dirtyPages -= Arrays.stream(dirty[i]).map(Long::bitCount).sum();
      }
      retired.add(slices[i]);
    }
    resize(keep);
    try {
      channel.truncate((long) keep << SLICE_SHIFT);
    } catch (IOException e) {
      throw new DBException.VolumeIOError(e);
    }
  }

  @Override
  public void putLong(long offset, long value) {
    slice(offset).putLong((int) (offset & SLICE_MASK), value);
    changed(offset, 8);
  }

  @Override
  public void putInt(long offset, int value) {
    slice(offset).putInt((int) (offset & SLICE_MASK), value);
    changed(offset, 4);
  }

  @Override
  public void putByte(long offset, byte value) {
    slice(offset).put((int) (offset & SLICE_MASK), value);
    changed(offset, 1);
  }

  @Override
  public void putData(long offset, byte[] src, int srcPos, int srcSize) {
    slice(offset).put((int) (offset & SLICE_MASK), src, srcPos, srcSize);
    changed(offset, srcSize);
  }

  @Override
  public void putData(long offset, ByteBuffer buf) {
    int length = buf.remaining();
    slice(offset).put((int) (offset & SLICE_MASK), buf, buf.position(), length);
    buf.position(buf.limit());
    changed(offset, length);
  }

  @Override
  public void putDataOverlap(long offset, byte[] src, int srcPos, int srcSize) {
    while (srcSize > 0) {
      int room = SLICE - (int) (offset & SLICE_MASK);
      int n = Math.min(room, srcSize);
      putData(offset, src, srcPos, n);
      offset += n;
      srcPos += n;
      srcSize -= n;
    }
  }

  @Override
  public void clear(long startOffset, long endOffset) {
    byte[] zeros = new byte[(int) Math.min(PAGE, Math.max(0, endOffset - startOffset))];
    for (long at = startOffset; at < endOffset; ) {
      int n = (int) Math.min(zeros.length, Math.min(endOffset - at, SLICE - (at & SLICE_MASK)));
      putData(at, zeros, 0, n);
      at += n;
    }
  }

  @Override
  public long getLong(long offset) {
    return slice(offset).getLong((int) (offset & SLICE_MASK));
  }

  @Override
  public int getInt(long offset) {
    return slice(offset).getInt((int) (offset & SLICE_MASK));
  }

  @Override
  public byte getByte(long offset) {
    return slice(offset).get((int) (offset & SLICE_MASK));
  }

  @Override
  public DataInput2 getDataInput(long offset, int size) {
    return new DataInput2.ByteBuffer(slice(offset), (int) (offset & SLICE_MASK));
  }

  @Override
  public DataInput2 getDataInputOverlap(long offset, int size) {
    if ((offset >>> SLICE_SHIFT) == ((offset + size) >>> SLICE_SHIFT)) {
      return getDataInput(offset, size);
    }
    byte[] copy = new byte[size];
    getData(offset, copy, 0, size);
    return new DataInput2.ByteArray(copy);
  }

  @Override
  public void getData(long offset, byte[] bytes, int bytesPos, int size) {
    while (size > 0) {
      int room = SLICE - (int) (offset & SLICE_MASK);
      int n = Math.min(room, size);
      slice(offset).get((int) (offset & SLICE_MASK), bytes, bytesPos, n);
      offset += n;
      bytesPos += n;
      size -= n;
    }
  }

  /** Writes every changed page to the file, unmaps it and closes the file, without forcing it. */
  @Override
  public void close() {
    if (closed.getAndSet(true)) {
      return;
    }
    try {
      writeAll();
    } finally {
      for (ByteBuffer b : slices) {
        retired.add(b);
      }
      slices = new ByteBuffer[0];
      settle();
      try {
        channel.close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot close " + file, e);
      }
    }
  }

  /** Writes every changed page and forces the file. */
  @Override
  public void sync() {
    writeAll();
    try {
      channel.force(false);
    } catch (IOException e) {
      throw new DBException.VolumeIOError(e);
    }
  }

  @Override
  public int sliceSize() {
    return SLICE;
  }

  @Override
  public boolean isSliced() {
    return true;
  }

  @Override
  public long length() {
    return (long) slices.length << SLICE_SHIFT;
  }

  @Override
  public boolean isReadOnly() {
    return false;
  }

  @Override
  public File getFile() {
    return file;
  }

  @Override
  public boolean getFileLocked() {
    return false;
  }

}
