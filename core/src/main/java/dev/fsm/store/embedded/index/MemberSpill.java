package dev.fsm.store.embedded.index;

import dev.fsm.files.StoreFiles;
import dev.fsm.task.TaskStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A snapshot's group members, gathered for a bulk load. Tasks arrive in id order, which within a
 * group is already its members' order, so no sort is needed: each group keeps its ids in arrival
 * order, and when all groups together hold more than {@code budget} bytes, every group's ids go
 * to one spill file as a chunk. Groups are then given in key order, each from its chunks.
 */
final class MemberSpill implements AutoCloseable {

  private record Group(String machine, String state, TaskStatus status) {}

  /** One group's ids: chunks in the file (offset, length), then those still on the heap. */
  private static final class Bucket {
    final byte[] key;
    ByteArrayOutputStream held = new ByteArrayOutputStream();
    final List<long[]> chunks = new ArrayList<>();
    long count;

    Bucket(byte[] key) {
      this.key = key;
    }
  }

  private final Path spill;
  private final long budget;
  private final Map<Group, Bucket> groups = new HashMap<>();
  private long held;
  private FileChannel file;
  private long written;

  MemberSpill(Path spill, long budget) {
    this.spill = spill;
    this.budget = budget;
  }

  /** Adds the task whose id key is {@code id} to its group's members. */
  void add(String machine, String state, TaskStatus status, byte[] id) throws IOException {
    Bucket b = groups.computeIfAbsent(new Group(machine, state, status),
        g -> new Bucket(IndexKeys.group(g.machine(), g.state(), g.status())));
    writeVarint(b.held, id.length);
    b.held.write(id, 0, id.length);
    b.count++;
    held += id.length + 1;
    if (held >= budget) {
      spillAll();
    }
  }

  /** Gives each group's key and member count, in key order, then every member in key order. */
  void drain(BiConsumer<byte[], Long> counted, Consumer<byte[]> members) throws IOException {
    TreeMap<byte[], Bucket> ordered = new TreeMap<>(Arrays::compareUnsigned);
    for (Bucket b : groups.values()) {
      ordered.put(b.key, b);
    }
    ordered.values().forEach(b -> counted.accept(b.key, b.count));
    for (Bucket b : ordered.values()) {
      for (long[] chunk : b.chunks) {
        ByteBuffer bytes = ByteBuffer.allocate((int) chunk[1]);
        while (bytes.hasRemaining()) {
          if (file.read(bytes, chunk[0] + bytes.position()) < 0) {
            throw new IOException(spill + " ended early");
          }
        }
        emit(b.key, bytes.array(), bytes.limit(), members);
      }
      emit(b.key, b.held.toByteArray(), b.held.size(), members);
      b.held = new ByteArrayOutputStream();
    }
  }

  private void spillAll() throws IOException {
    if (file == null) {
      file = StoreFiles.createFresh(spill, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
    for (Bucket b : groups.values()) {
      if (b.held.size() == 0) {
        continue;
      }
      ByteBuffer bytes = ByteBuffer.wrap(b.held.toByteArray());
      b.chunks.add(new long[] {written, bytes.limit()});
      while (bytes.hasRemaining()) {
        written += file.write(bytes, written);
      }
      // A new buffer rather than reset(): a grown one kept per group would outlast the budget.
      b.held = new ByteArrayOutputStream();
    }
    held = 0;
  }

  private static void emit(byte[] group, byte[] ids, int length, Consumer<byte[]> members) {
    int at = 0;
    while (at < length) {
      int n = 0;
      for (int shift = 0; ; shift += 7) {
        byte b = ids[at++];
        n |= (b & 0x7f) << shift;
        if (b >= 0) {
          break;
        }
      }
      byte[] member = Arrays.copyOf(group, group.length + n);
      System.arraycopy(ids, at, member, group.length, n);
      members.accept(member);
      at += n;
    }
  }

  private static void writeVarint(ByteArrayOutputStream out, int n) {
    while ((n & ~0x7f) != 0) {
      out.write((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    out.write(n);
  }

  @Override
  public void close() throws IOException {
    if (file != null) {
      file.close();
      Files.deleteIfExists(spill);
    }
  }
}
