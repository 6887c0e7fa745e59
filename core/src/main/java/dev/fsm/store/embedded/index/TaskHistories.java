package dev.fsm.store.embedded.index;

import dev.fsm.store.embedded.event.TransitionCodec;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SortedMap;

/**
 * The index's task histories, in chunks of {@link #CHUNK} entries: chunk {@code c} of a task is
 * keyed by {@link IndexKeys#history}{@code (id, c)} and holds the entries at places {@code c *
 * CHUNK} on, each behind its slot in the chunk, in slot order. A task's history is one range,
 * oldest first, and putting an entry at its place twice is the same as once.
 *
 * <p>Why chunks: one B-tree entry per history entry made every transition insert a key, and
 * MapDB rewrites a whole node (64 keys and their values) per insert; it was the largest share of
 * the index thread's time. A chunk's value sits outside the nodes, so adding an entry to a chunk
 * rewrites only that value, and a node changes once per {@link #CHUNK} transitions.
 */
final class TaskHistories {

  /** History entries per chunk. */
  static final int CHUNK = 16;

  /** Fewer ids than this are read by descents: a walk's set-up would cost more. */
  private static final int RANGE_AT_LEAST = 8;
  /** Chunks of other tasks a walk may pass per id asked for before it gives way to descents. */
  private static final int OTHERS_PER_ID = 16;

  private final NavigableMap<byte[], byte[]> chunks;

  /** Tasks' last chunks not yet written to {@link #chunks}. */
  private final WaitingChunks waiting;

  TaskHistories(NavigableMap<byte[], byte[]> chunks) {
    this.chunks = chunks;
    this.waiting = new WaitingChunks(chunks::put);
  }

  /** Writes the task's waiting chunk, if any, to MapDB, so that reads there see all of it. */
  private void settle(String id) {
    waiting.settle(id);
  }

  /** Writes every waiting chunk to MapDB, as the file must have them at a clean close. */
  void flush() {
    waiting.flush();
  }

  /**
   * A task's history length and the bytes of its last chunk (null when it has no entries), as
   * the index holds them: what the next entry's put needs to know.
   */
  record Tail(int length, byte[] chunk) {}

  /** Puts the entry at its place in the task's history. */
  void put(String id, int place, Transition entry) {
    put(id, place, entry, null);
  }

  /**
   * Puts the entry at its place in the task's history, given the task's tail as it stands when
   * known (null when not), and gives the tail after, or null when not known. A runner's outcome
   * appends at the place after the known tail, so the chunk it goes in is the tail's (or a new
   * one) and need not be read: the read was half of this put's cost (a B-tree descent and the
   * chunk's bytes copied out of the file), with 64 writers one by one. Any other place, as a
   * rebuild's replay puts, reads the chunk.
   */
  Tail put(String id, int place, Transition entry, Tail known) {
    int number = place / CHUNK;
    byte[] key = IndexKeys.history(id, number);
    byte[] encoded = TransitionCodec.encode(entry);
    if (known != null && place == known.length()) {
      byte[] chunk = with(place % CHUNK == 0 ? null : known.chunk(), place % CHUNK, encoded);
      WaitingChunks.Waiting before = waiting.take(id);
      if (before != null && !Arrays.equals(before.key(), key)) {
        chunks.put(before.key(), before.chunk());
      }
      if (place % CHUNK == CHUNK - 1) {
        chunks.put(key, chunk);
      } else {
        waiting.hold(id, key, chunk);
      }
      return new Tail(place + 1, chunk);
    }
    settle(id);
    byte[] chunk = with(chunks.get(key), place % CHUNK, encoded);
    chunks.put(key, chunk);
    if (known == null) {
      return null;
    }
    // Replayed over a checkpoint, an entry may be one the task already has.
    int length = Math.max(known.length(), place + 1);
    return new Tail(length, (length - 1) / CHUNK == number ? chunk : known.chunk());
  }

  /**
   * The histories of many tasks, each oldest first, keyed and ordered as {@code ids}; an id of
   * no task has none. Ids that lie close in id order (a page of a listing: newest tasks first)
   * are read by one walk over their key range, decoding each leaf once, rather than by one
   * descent each: 20,000 descents were most of `fsm stats` at 1M tasks. A range that turns out
   * to hold many other tasks' chunks is left for descents.
   */
  Map<String, List<Transition>> of(List<String> ids) {
    ids.forEach(this::settle);
    Map<String, List<Transition>> found = new LinkedHashMap<>();
    ids.forEach(id -> found.put(id, new ArrayList<>()));
    if (ids.size() >= RANGE_AT_LEAST && walk(found)) {
      return found;
    }
    found.replaceAll((id, none) -> of(id));
    return found;
  }

  /** Reads every requested history in one walk; false, with nothing kept, when over budget. */
  private boolean walk(Map<String, List<Transition>> found) {
    byte[] low = null;
    byte[] high = null;
    String highId = null;
    for (String id : found.keySet()) {
      byte[] name = IndexKeys.historyOf(id);
      if (low == null || Arrays.compareUnsigned(name, low) < 0) {
        low = name;
      }
      if (high == null || Arrays.compareUnsigned(name, high) > 0) {
        high = name;
        highId = id;
      }
    }
    long others = 0;
    long budget = (long) OTHERS_PER_ID * found.size();
    for (Map.Entry<byte[], byte[]> e
        : chunks.subMap(low, true, IndexKeys.historyEnd(highId), false).entrySet()) {
      List<Transition> history = found.get(IndexKeys.nameAt(e.getKey(), new int[] {0}));
      if (history == null) {
        if (++others > budget) {
          found.values().forEach(List::clear);
          return false;
        }
        continue;
      }
      byte[] chunk = e.getValue();
      for (Slot s : slots(chunk)) {
        history.add(s.decode(chunk));
      }
    }
    return true;
  }

  /** A task's history, oldest first. */
  List<Transition> of(String id) {
    List<Transition> found = new ArrayList<>();
    for (byte[] chunk : range(id).values()) {
      for (Slot s : slots(chunk)) {
        found.add(s.decode(chunk));
      }
    }
    return found;
  }

  /**
   * A task's history, oldest first, each entry as {@link TransitionCodec} encodes it; each is
   * decoded too, so that a damaged one throws here.
   */
  List<byte[]> encodedOf(String id) {
    List<byte[]> found = new ArrayList<>();
    for (byte[] chunk : range(id).values()) {
      for (Slot s : slots(chunk)) {
        byte[] entry = Arrays.copyOfRange(chunk, s.from(), s.to());
        TransitionCodec.decode(entry);
        found.add(entry);
      }
    }
    return found;
  }

  /**
   * A task's entries recorded at or after {@code since}, newest first. Entries are in time
   * order, so it reads chunks from the newest back only until one starts before {@code since}:
   * most tasks' errors since a recent time cost one chunk. (One lookup a chunk: MapDB walks a
   * descending iteration from the root at every step.)
   */
  List<Transition> since(String id, Instant since) {
    List<Transition> found = new ArrayList<>();
    NavigableMap<byte[], byte[]> range = range(id);
    for (Map.Entry<byte[], byte[]> e = range.lastEntry(); e != null;
        e = range.lowerEntry(e.getKey())) {
      byte[] chunk = e.getValue();
      List<Slot> slots = slots(chunk);
      for (int i = slots.size() - 1; i >= 0; i--) {
        Transition t = slots.get(i).decode(chunk);
        if (t.time().isBefore(since)) {
          return found;
        }
        found.add(t);
      }
    }
    return found;
  }

  /** A task's newest entry, or null when it has none. */
  Transition last(String id) {
    Map.Entry<byte[], byte[]> last = range(id).lastEntry();
    if (last == null) {
      return null;
    }
    List<Slot> slots = slots(last.getValue());
    return slots.get(slots.size() - 1).decode(last.getValue());
  }

  /** Removes a purged task's whole history. */
  void remove(String id) {
    waiting.take(id);
    range(id).clear();
  }

  /** How many history entries the task holds (the place of its next one), and its last chunk. */
  Tail tail(String id) {
    Map.Entry<byte[], byte[]> last = range(id).lastEntry();
    if (last == null) {
      return new Tail(0, null);
    }
    List<Slot> slots = slots(last.getValue());
    return new Tail(IndexKeys.historyChunk(last.getKey()) * CHUNK
        + slots.get(slots.size() - 1).slot() + 1, last.getValue());
  }

  /** Decodes the last chunk; see {@link TaskIndex#check}. */
  void check() {
    // lastEntry() alone, not isEmpty(): a purge empties nodes at the front, which MapDB keeps.
    Map.Entry<byte[], byte[]> last = chunks.lastEntry();
    if (last != null) {
      byte[] chunk = last.getValue();
      for (Slot s : slots(chunk)) {
        s.decode(chunk);
      }
    }
  }

  /**
   * The chunks of a task's history, given as encoded entries by place, keyed as the index keys
   * them and in key order: how a rebuild adds it.
   */
  static void chunksOf(String id, SortedMap<Integer, byte[]> entries, ChunkSink sink) {
    byte[] chunk = null;
    int chunkNumber = -1;
    for (Map.Entry<Integer, byte[]> e : entries.entrySet()) {
      int place = e.getKey();
      if (place / CHUNK != chunkNumber && chunk != null) {
        sink.put(IndexKeys.history(id, chunkNumber), chunk);
        chunk = null;
      }
      chunkNumber = place / CHUNK;
      chunk = with(chunk, place % CHUNK, e.getValue());
    }
    if (chunk != null) {
      sink.put(IndexKeys.history(id, chunkNumber), chunk);
    }
  }

  /** Takes a chunk's key and value. */
  @FunctionalInterface
  interface ChunkSink {
    void put(byte[] key, byte[] chunk);
  }

  /** A task's chunks in MapDB, its waiting one written there first. */
  private NavigableMap<byte[], byte[]> range(String id) {
    settle(id);
    return chunks.subMap(IndexKeys.historyOf(id), true, IndexKeys.historyEnd(id), false);
  }

  /** One entry in a chunk: its slot, where its header starts and where its encoding lies. */
  private record Slot(int slot, int header, int from, int to) {
    Transition decode(byte[] chunk) {
      return TransitionCodec.decode(Arrays.copyOfRange(chunk, from, to));
    }
  }

  /**
   * A chunk's entries. Each is its slot (one byte), its length (a varint) and its encoding.
   *
   * @throws IllegalArgumentException when the bytes are not whole entries in slot order
   */
  private static List<Slot> slots(byte[] chunk) {
    List<Slot> slots = new ArrayList<>(CHUNK);
    int at = 0;
    int previous = -1;
    while (at < chunk.length) {
      int header = at;
      int slot = chunk[at++] & 0xff;
      int length = 0;
      for (int shift = 0; ; shift += 7) {
        if (at == chunk.length || shift > 28) {
          throw new IllegalArgumentException("history chunk is damaged at byte " + header);
        }
        int b = chunk[at++];
        length |= (b & 0x7f) << shift;
        if (b >= 0) {
          break;
        }
      }
      if (slot <= previous || slot >= CHUNK || length < 0 || length > chunk.length - at) {
        throw new IllegalArgumentException("history chunk is damaged at byte " + header);
      }
      slots.add(new Slot(slot, header, at, at + length));
      previous = slot;
      at += length;
    }
    if (slots.isEmpty()) {
      throw new IllegalArgumentException("history chunk is empty");
    }
    return slots;
  }

  /** The chunk (null: none yet) with {@code entry} at {@code slot}, in place of any there. */
  private static byte[] with(byte[] chunk, int slot, byte[] entry) {
    int length = chunk == null ? 0 : chunk.length;
    int from = length;
    int to = length;
    for (Slot s : chunk == null ? List.<Slot>of() : slots(chunk)) {
      if (s.slot() >= slot) {
        from = s.header();
        to = s.slot() == slot ? s.to() : from;
        break;
      }
    }
    int header = 2;
    for (int v = entry.length; v >= 0x80; v >>>= 7) {
      header++;
    }
    byte[] out = new byte[length - (to - from) + header + entry.length];
    if (chunk != null) {
      System.arraycopy(chunk, 0, out, 0, from);
      System.arraycopy(chunk, to, out, from + header + entry.length, length - to);
    }
    int at = from;
    out[at++] = (byte) slot;
    int v = entry.length;
    for (; v >= 0x80; v >>>= 7) {
      out[at++] = (byte) (v | 0x80);
    }
    out[at++] = (byte) v;
    System.arraycopy(entry, 0, out, at, entry.length);
    return out;
  }
}
