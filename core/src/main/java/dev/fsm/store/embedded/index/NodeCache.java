package dev.fsm.store.embedded.index;

import java.util.Arrays;
import kotlin.collections.LongIterator;
import org.eclipse.collections.impl.map.mutable.primitive.LongLongHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.mapdb.BTreeMapJava;
import org.mapdb.CC;
import org.mapdb.DB;
import org.mapdb.Serializer;
import org.mapdb.Store;
import org.mapdb.StoreDirect;
import org.mapdb.volume.Volume;
import org.mapdb.volume.VolumeFactory;

/**
 * MapDB's store with the B-tree nodes used last kept decoded on the heap, and written back only
 * when they leave it. MapDB copies a node's bytes out of the file and decodes all of its keys on
 * every visit, and encodes and copies the whole node back on every change (a profile of the
 * runner put most of the index's CPU there); the hottest nodes (the head of the due queue, the
 * groups' newest members, the history's tail) change many times between two evictions. MapDB
 * never changes a node object in place (every change makes a new node and writes it with {@code
 * update}), so a decoded node can be handed out again. The file is whole only after {@link
 * #close} (or {@link #commit}): the index is trusted at open only after a clean close, and
 * rebuilt otherwise. Not thread-safe, like the index that uses it.
 */
final class NodeCache implements Store {

  /** Nodes kept: about 2-3 KiB each with 64 keys. */
  static final int NODES = 8192;

  /** A node as the serializer that read or wrote it gives it, and whether the file lags it. */
  private static final class Cached {
    final long recid;
    final int slot;
    Serializer<?> serializer;
    Object node;
    boolean dirty;
    /** Set by each use, cleared as the clock hand passes: the hand takes a node not used since. */
    boolean used = true;

    Cached(long recid, int slot, Serializer<?> serializer, Object node, boolean dirty) {
      this.recid = recid;
      this.slot = slot;
      this.serializer = serializer;
      this.node = node;
      this.dirty = dirty;
    }
  }

  private final Store store;
  /**
   * The cached nodes by record id, and the same nodes in a ring the clock hand walks to choose
   * what leaves. A clock, not an access-ordered map: a hit only sets a flag, where a linked map
   * moved an entry (boxing its key, writing references into long-lived objects that every young
   * collection then scans).
   */
  private final LongObjectHashMap<Cached> byRecid;
  private final Cached[] ring;
  private int hand;
  /** Free slots of {@link #ring}, as a stack. */
  private final int[] free;
  private int freeCount;
  /**
   * Each tree's root pointer, read on every visit: a record of its own that MapDB would
   * otherwise decode from the file each time. Written through.
   */
  private final LongLongHashMap roots = new LongLongHashMap();

  NodeCache(Store store, int capacity) {
    this.store = store;
    this.byRecid = new LongObjectHashMap<>(capacity * 2);
    this.ring = new Cached[capacity];
    this.free = new int[capacity];
    clear();
  }

  /**
   * A database over {@code volume}: what {@code DBMaker.volumeDB(volume, exists)
   * .concurrencyDisable().make()} builds, with {@code capacity} nodes kept decoded.
   */
  static DB db(Volume volume, int capacity) {
    boolean exists = volume.length() > 0;
    StoreDirect store = StoreDirect.Companion.make(null, VolumeFactory.wrap(volume, exists), 0L,
        false, false, CC.STORE_DIRECT_CONC_SHIFT, 0L, 0L, false, false, false, true, false);
    return new DB(new NodeCache(store, capacity), exists, false, NodeCache.class.getClassLoader(),
        0);
  }

  private static boolean isNode(Serializer<?> serializer) {
    return serializer instanceof BTreeMapJava.NodeSerializer;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void writeBack(Cached cached) {
    if (cached.dirty) {
      store.update(cached.recid, cached.node, (Serializer) cached.serializer);
      cached.dirty = false;
    }
  }

  /** Writes every changed node to the file. */
  private void writeBackAll() {
    for (Cached cached : ring) {
      if (cached != null) {
        writeBack(cached);
      }
    }
  }

  /** Takes a node out, written to the file first if it changed. */
  private void evict(long recid) {
    Cached cached = forget(recid);
    if (cached != null) {
      writeBack(cached);
    }
  }

  /** Takes a node out without writing it: its record is being replaced or deleted. */
  private Cached forget(long recid) {
    Cached cached = byRecid.remove(recid);
    if (cached != null) {
      ring[cached.slot] = null;
      free[freeCount++] = cached.slot;
    }
    return cached;
  }

  /** Keeps a node, making room first by writing back and dropping one not used lately. */
  private void keep(long recid, Serializer<?> serializer, Object node, boolean dirty) {
    if (freeCount == 0) {
      Cached victim;
      while ((victim = ring[hand]).used) {
        victim.used = false;
        hand = (hand + 1) % ring.length;
      }
      hand = (hand + 1) % ring.length;
      evict(victim.recid);
    }
    Cached cached = new Cached(recid, free[--freeCount], serializer, node, dirty);
    ring[cached.slot] = cached;
    byRecid.put(recid, cached);
  }

  /** Forgets every node and root pointer: every slot of the ring free. */
  private void clear() {
    byRecid.clear();
    roots.clear();
    Arrays.fill(ring, null);
    for (int i = 0; i < ring.length; i++) {
      free[i] = ring.length - 1 - i;
    }
    freeCount = ring.length;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R> R get(long recid, Serializer<R> serializer) {
    if (serializer == Serializer.RECID) {
      long root = roots.getIfAbsent(recid, -1L);
      if (root == -1L) {
        Long read = store.get(recid, Serializer.RECID);
        if (read == null) {
          return null;
        }
        roots.put(recid, read);
        return (R) read;
      }
      return (R) Long.valueOf(root);
    }
    if (!isNode(serializer)) {
      return store.get(recid, serializer);
    }
    Cached cached = byRecid.get(recid);
    if (cached != null) {
      if (cached.serializer == serializer) {
        cached.used = true;
        return (R) cached.node;
      }
      // MapDB creates a tree's first node with another serializer than the tree's, whose empty
      // value array is of another type: read it as this serializer decodes it.
      evict(recid);
    }
    R node = store.get(recid, serializer);
    if (node != null) {
      keep(recid, serializer, node, false);
    }
    return node;
  }

  @Override
  public <R> long put(R record, Serializer<R> serializer) {
    long recid = store.put(record, serializer);
    forget(recid);
    roots.remove(recid);
    return recid;
  }

  @Override
  public <R> void update(long recid, R record, Serializer<R> serializer) {
    if (record != null && isNode(serializer)) {
      Cached cached = byRecid.get(recid);
      if (cached == null) {
        keep(recid, serializer, record, true);
      } else {
        cached.serializer = serializer;
        cached.node = record;
        cached.dirty = true;
        cached.used = true;
      }
      return;
    }
    forget(recid);
    roots.remove(recid);
    store.update(recid, record, serializer);
    if (record != null && serializer == Serializer.RECID) {
      roots.put(recid, (Long) record);
    }
  }

  @Override
  public <R> boolean compareAndSwap(long recid, R expectedOldRecord, R newRecord,
      Serializer<R> serializer) {
    evict(recid);
    roots.remove(recid);
    return store.compareAndSwap(recid, expectedOldRecord, newRecord, serializer);
  }

  @Override
  public <R> void delete(long recid, Serializer<R> serializer) {
    forget(recid);
    roots.remove(recid);
    store.delete(recid, serializer);
  }

  @Override
  public long preallocate() {
    return store.preallocate();
  }

  @Override
  public LongIterator getAllRecids() {
    writeBackAll();
    return store.getAllRecids();
  }

  @Override
  public Iterable<String> getAllFiles() {
    return store.getAllFiles();
  }

  @Override
  public void commit() {
    writeBackAll();
    store.commit();
  }

  @Override
  public void compact() {
    writeBackAll();
    clear();
    store.compact();
  }

  @Override
  public void close() {
    if (!store.isClosed()) {
      writeBackAll();
    }
    clear();
    store.close();
  }

  @Override
  public boolean isClosed() {
    return store.isClosed();
  }

  @Override
  public void verify() {
    writeBackAll();
    store.verify();
  }

  @Override
  public boolean isReadOnly() {
    return store.isReadOnly();
  }

  @Override
  public boolean fileLoad() {
    return store.fileLoad();
  }

  @Override
  public boolean isThreadSafe() {
    return store.isThreadSafe();
  }

  @Override
  public void checkThreadSafe() {
    store.checkThreadSafe();
  }
}
