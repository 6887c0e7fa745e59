package dev.fsm.store.embedded.index;

import java.util.LinkedHashMap;
import java.util.Map;
import kotlin.collections.LongIterator;
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
    final Serializer<?> serializer;
    final Object node;
    boolean dirty;

    Cached(Serializer<?> serializer, Object node, boolean dirty) {
      this.serializer = serializer;
      this.node = node;
      this.dirty = dirty;
    }
  }

  private final Store store;
  private final Map<Long, Cached> nodes;

  NodeCache(Store store, int capacity) {
    this.store = store;
    this.nodes = new LinkedHashMap<>(capacity * 2, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, Cached> eldest) {
        if (size() <= capacity) {
          return false;
        }
        writeBack(eldest.getKey(), eldest.getValue());
        return true;
      }
    };
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
  private void writeBack(long recid, Cached cached) {
    if (cached.dirty) {
      store.update(recid, cached.node, (Serializer) cached.serializer);
      cached.dirty = false;
    }
  }

  /** Writes every changed node to the file. */
  private void writeBackAll() {
    nodes.forEach(this::writeBack);
  }

  /** Takes a node out, written to the file first if it changed. */
  private void evict(long recid) {
    Cached cached = nodes.remove(recid);
    if (cached != null) {
      writeBack(recid, cached);
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R> R get(long recid, Serializer<R> serializer) {
    if (!isNode(serializer)) {
      return store.get(recid, serializer);
    }
    Cached cached = nodes.get(recid);
    if (cached != null) {
      if (cached.serializer == serializer) {
        return (R) cached.node;
      }
      // MapDB creates a tree's first node with another serializer than the tree's, whose empty
      // value array is of another type: read it as this serializer decodes it.
      evict(recid);
    }
    R node = store.get(recid, serializer);
    if (node != null) {
      nodes.put(recid, new Cached(serializer, node, false));
    }
    return node;
  }

  @Override
  public <R> long put(R record, Serializer<R> serializer) {
    long recid = store.put(record, serializer);
    nodes.remove(recid);
    return recid;
  }

  @Override
  public <R> void update(long recid, R record, Serializer<R> serializer) {
    if (record != null && isNode(serializer)) {
      nodes.put(recid, new Cached(serializer, record, true));
      return;
    }
    nodes.remove(recid);
    store.update(recid, record, serializer);
  }

  @Override
  public <R> boolean compareAndSwap(long recid, R expectedOldRecord, R newRecord,
      Serializer<R> serializer) {
    evict(recid);
    return store.compareAndSwap(recid, expectedOldRecord, newRecord, serializer);
  }

  @Override
  public <R> void delete(long recid, Serializer<R> serializer) {
    nodes.remove(recid);
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
    nodes.clear();
    store.compact();
  }

  @Override
  public void close() {
    if (!store.isClosed()) {
      writeBackAll();
    }
    nodes.clear();
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
