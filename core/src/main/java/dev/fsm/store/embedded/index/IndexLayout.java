package dev.fsm.store.embedded.index;

import java.util.NavigableSet;
import org.mapdb.BTreeMap;
import org.mapdb.DB;
import org.mapdb.Serializer;
import org.mapdb.serializer.GroupSerializer;

/**
 * The index file's collections as MapDB makes them: their names, node sizes and serializers,
 * for the index, a rebuild's sinks and the tools that read the file.
 */
final class IndexLayout {

  /**
   * Keys per B-tree node. MapDB decodes and rewrites a whole node per visit, so smaller nodes
   * would be cheaper per visit, but measured with 200k tasks: nodes of 8 or 16 keys made changes
   * 2-5x slower as trees deepened and emptied nodes piled up; 64 were as fast as 32 and 13%
   * smaller.
   */
  static final int NODE = 64;
  static final String DUE = "due";
  static final String GROUPS = "groups";
  /** Every key is bytes (see {@link IndexKeys}). */
  static final GroupSerializer<byte[]> KEY = KeySerializer.INSTANCE;

  private IndexLayout() {}

  static DB.TreeMapMaker<byte[], byte[]> tasksMaker(DB db) {
    return db.treeMap("tasks", KEY, Serializer.BYTE_ARRAY).maxNodeSize(NODE).counterEnable()
        .valuesOutsideNodesEnable();
  }

  static DB.TreeMapMaker<byte[], byte[]> historyMaker(DB db) {
    return db.treeMap("history", KEY, Serializer.BYTE_ARRAY).maxNodeSize(NODE)
        .valuesOutsideNodesEnable();
  }

  static DB.TreeMapMaker<byte[], Long> countsMaker(DB db) {
    return db.treeMap("counts", KEY, Serializer.LONG);
  }

  /** The map {@code maker} describes, made anew or opened. */
  static <K, V> BTreeMap<K, V> map(DB.TreeMapMaker<K, V> maker, boolean create) {
    return create ? maker.create() : maker.open();
  }

  /** A set of keys by name, made anew or opened. */
  static <E> NavigableSet<E> set(DB db, String name, GroupSerializer<E> serializer,
      boolean create) {
    DB.TreeSetMaker<E> maker = db.treeSet(name, serializer).maxNodeSize(NODE);
    return create ? maker.create() : maker.open();
  }
}
