package dev.fsm.store.embedded.index;

import dev.fsm.files.StoreFiles;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Sorts byte keys (compared unsigned, as the index's sets are) with bounded memory: runs of up to
 * {@code budget} bytes are sorted on the heap and appended to one spill file, then merged. Keys
 * that fit in one run never touch the file.
 */
final class KeySorter implements AutoCloseable {

  /** Heap a key costs besides its bytes: the array's header and the list's reference. */
  private static final int OVERHEAD = 24;
  private static final int BUFFER = 1 << 16;

  private final Path spill;
  private final long budget;
  private final List<byte[]> run = new ArrayList<>();
  private final List<long[]> runs = new ArrayList<>();
  private long held;
  private DataOutputStream out;
  private long written;

  KeySorter(Path spill, long budget) {
    this.spill = spill;
    this.budget = budget;
  }

  void add(byte[] key) throws IOException {
    run.add(key);
    held += key.length + OVERHEAD;
    if (held >= budget) {
      spillRun();
    }
  }

  /** Gives every key added, in ascending order. */
  void drain(Consumer<byte[]> each) throws IOException {
    try (Sorted keys = sorted()) {
      while (keys.hasNext()) {
        each.accept(keys.next());
      }
    }
  }

  /** Every key added, in ascending order, to be read once; close it when done. */
  Sorted sorted() throws IOException {
    run.sort(Arrays::compareUnsigned);
    if (runs.isEmpty()) {
      List<byte[]> keys = new ArrayList<>(run);
      run.clear();
      return new Sorted(keys.iterator(), List.of(), null);
    }
    spillRun();
    out.close();
    out = null;
    List<DataInputStream> readers = new ArrayList<>();
    PriorityQueue<Head> heads = new PriorityQueue<>();
    try {
      for (long[] r : runs) {
        SeekableByteChannel channel = StoreFiles.open(spill, StandardOpenOption.READ)
            .position(r[0]);
        DataInputStream in = new DataInputStream(
            new BufferedInputStream(Channels.newInputStream(channel), BUFFER));
        readers.add(in);
        new Head(in, r[1]).advance(heads);
      }
    } catch (IOException | RuntimeException e) {
      new Sorted(null, readers, heads).close();
      throw e;
    }
    return new Sorted(null, readers, heads);
  }

  /** Sorted keys, from the heap or merged from the spilled runs as they are read. */
  static final class Sorted implements AutoCloseable {
    private final Iterator<byte[]> held;
    private final List<DataInputStream> readers;
    private final PriorityQueue<Head> heads;

    private Sorted(Iterator<byte[]> held, List<DataInputStream> readers,
        PriorityQueue<Head> heads) {
      this.held = held;
      this.readers = readers;
      this.heads = heads;
    }

    boolean hasNext() {
      return held != null ? held.hasNext() : !heads.isEmpty();
    }

    byte[] next() throws IOException {
      if (held != null) {
        return held.next();
      }
      Head h = heads.poll();
      if (h == null) {
        throw new NoSuchElementException();
      }
      byte[] key = h.key;
      h.advance(heads);
      return key;
    }

    @Override
    public void close() throws IOException {
      for (DataInputStream in : readers) {
        in.close();
      }
    }
  }

  private void spillRun() throws IOException {
    if (run.isEmpty()) {
      return;
    }
    run.sort(Arrays::compareUnsigned);
    if (out == null) {
      out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(
          StoreFiles.createFresh(spill, StandardOpenOption.WRITE)), BUFFER));
    }
    runs.add(new long[] {written, run.size()});
    for (byte[] key : run) {
      out.writeInt(key.length);
      out.write(key);
      written += 4 + key.length;
    }
    run.clear();
    held = 0;
  }

  @Override
  public void close() throws IOException {
    if (out != null) {
      out.close();
    }
    Files.deleteIfExists(spill);
  }

  /** A run being merged: its next key and how many follow it. */
  private static final class Head implements Comparable<Head> {
    private final DataInputStream in;
    private long left;
    private byte[] key;

    Head(DataInputStream in, long count) {
      this.in = in;
      this.left = count;
    }

    /** Reads the run's next key and queues the run again, unless it is done. */
    void advance(PriorityQueue<Head> heads) throws IOException {
      if (left-- == 0) {
        return;
      }
      key = new byte[in.readInt()];
      in.readFully(key);
      heads.add(this);
    }

    @Override
    public int compareTo(Head other) {
      return Arrays.compareUnsigned(key, other.key);
    }
  }
}
