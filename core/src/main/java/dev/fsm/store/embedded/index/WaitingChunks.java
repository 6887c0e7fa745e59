package dev.fsm.store.embedded.index;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Recently changed tasks' last history chunks, not yet written to MapDB, least recently changed
 * first. Each outcome rewrites its task's last chunk, and a MapDB put of it (a B-tree visit and
 * the value written again) was the largest part of an outcome's cost in the index; held here, a
 * chunk is written once: when it is full ({@link TaskHistories} writes it then), when {@value
 * #TASKS} other tasks changed after it or the waiting chunks pass {@link #BYTES}, when a read of
 * that task's history comes ({@link #settle}), or at a {@link #flush}. Not thread-safe, as the
 * index it belongs to.
 */
final class WaitingChunks {

  /** Tasks whose last chunk may wait at once. */
  static final int TASKS = 16_384;
  /** Bytes of chunks that may wait at once: entries with long reasons reach it first. */
  static final long BYTES = 8L << 20;

  /** A task's last chunk as it stands, and its key. */
  record Waiting(byte[] key, byte[] chunk) {}

  private final LinkedHashMap<String, Waiting> waiting = new LinkedHashMap<>(1024, 0.75f, true);
  private final BiConsumer<byte[], byte[]> write;
  private long bytes;

  /** Chunks that {@code write} puts in MapDB when they leave. */
  WaitingChunks(BiConsumer<byte[], byte[]> write) {
    this.write = write;
  }

  /** Takes the task's waiting chunk off the heap, unwritten, and gives it (null: none). */
  Waiting take(String id) {
    Waiting w = waiting.remove(id);
    if (w != null) {
      bytes -= w.chunk().length;
    }
    return w;
  }

  /** Writes the task's waiting chunk, if any, so that reads of MapDB see all of it. */
  void settle(String id) {
    Waiting w = take(id);
    if (w != null) {
      write.accept(w.key(), w.chunk());
    }
  }

  /** Lets the task's last chunk wait, writing the least recently changed ones past the limits. */
  void hold(String id, byte[] key, byte[] chunk) {
    Waiting before = waiting.put(id, new Waiting(key, chunk));
    bytes += chunk.length - (before == null ? 0 : before.chunk().length);
    while (waiting.size() > TASKS || bytes > BYTES) {
      Map.Entry<String, Waiting> eldest = waiting.entrySet().iterator().next();
      settle(eldest.getKey());
    }
  }

  /** Writes every waiting chunk and empties the heap. */
  void flush() {
    for (Waiting w : waiting.values()) {
      write.accept(w.key(), w.chunk());
    }
    waiting.clear();
    bytes = 0;
  }
}
