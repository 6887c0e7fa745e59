package dev.fsm.store.embedded.index;

import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;
import org.mapdb.BTreeMap;
import org.mapdb.BTreeMapJava;
import org.mapdb.DB;
import org.mapdb.Serializer;
import org.mapdb.Store;
import org.mapdb.StoreDirect;

/**
 * Where an index file's bytes go (issue 21): per collection, the B-tree nodes and the values kept
 * outside them, as encoded and as StoreDirect allocates them (16-byte units, one 8-byte recid
 * slot each), then free space, recid pages and the file's tail. A measuring tool, run by hand:
 * {@code java -cp ... dev.fsm.store.embedded.index.IndexSpace STORE/index.db [TASKS]}.
 */
public final class IndexSpace {

  /** Bytes of one kind of record: how many, as encoded, as allocated. */
  static final class Tally {
    long records;
    long encoded;
    long allocated;
    long keys;
    long keyBytes;

    void add(long size) {
      records++;
      encoded += size;
      allocated += (size + 15) / 16 * 16;
    }
  }

  /** MapDB's flag bit of a directory node ({@code BTreeMapJava.DIR}). */
  private static final int DIR = 8;

  private final Store store;
  private final Map<String, Tally> tallies = new TreeMap<>();

  private IndexSpace(Store store) {
    this.store = store;
  }

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    long tasks = args.length > 1 ? Long.parseLong(args[1]) : 0;
    IndexFile opened = IndexFile.openToRead(file);
    try {
      new IndexSpace(opened.db().getStore()).report(opened.db(), Files.size(file), tasks,
          System.out);
    } finally {
      opened.db().close();
    }
  }

  private void report(DB db, long fileSize, long tasks, PrintStream out) throws Exception {
    walk("tasks", IndexLayout.tasksMaker(db).open());
    walk("history", IndexLayout.historyMaker(db).open());
    walk("counts", IndexLayout.countsMaker(db).open());
    for (String set : new String[] {IndexLayout.DUE, IndexLayout.GROUPS, TaskCreations.NAME}) {
      walk(set, setMap(db.treeSet(set, KeySerializer.INSTANCE).maxNodeSize(IndexLayout.NODE)
          .open()));
    }
    long counted = 0;
    long recids = 0;
    for (Tally t : tallies.values()) {
      recids += t.records;
    }
    StoreDirect direct = (StoreDirect) store;
    long free = direct.getFreeSize();
    long per = Math.max(tasks, 1);
    out.printf("file %,d bytes, %d tasks: %.1f B/task%n", fileSize, tasks,
        (double) fileSize / per);
    out.printf("%-22s %10s %12s %12s %10s %10s %8s%n", "what", "records", "encoded",
        "allocated", "keys", "B/task", "rounding");
    for (Map.Entry<String, Tally> e : tallies.entrySet()) {
      Tally t = e.getValue();
      counted += t.allocated;
      out.printf("%-22s %,10d %,12d %,12d %,10d %10.1f %8.1f%n", e.getKey(), t.records,
          t.encoded, t.allocated, t.keys, (double) t.allocated / per,
          (double) (t.allocated - t.encoded) / per);
    }
    long recidSlots = recids * 8;
    out.printf("%-22s %,10d %12s %,12d %10s %10.1f%n", "recid slots (8 B)", recids, "",
        recidSlots, "", (double) recidSlots / per);
    out.printf("%-22s %10s %12s %,12d %10s %10.1f%n", "free (freed records)", "", "", free, "",
        (double) free / per);
    long rest = fileSize - counted - recidSlots - free;
    out.printf("%-22s %10s %12s %,12d %10s %10.1f%n", "rest (tails, pages)", "", "", rest, "",
        (double) rest / per);
  }

  /** The map under a MapDB tree set. */
  private static BTreeMap<?, ?> setMap(Object set) throws ReflectiveOperationException {
    if (!(set instanceof BTreeMapJava.KeySet<?> keySet)) {
      return null;
    }
    Field m = BTreeMapJava.KeySet.class.getDeclaredField("m");
    m.setAccessible(true);
    return (BTreeMap<?, ?>) m.get(keySet);
  }

  private Tally tally(String name) {
    return tallies.computeIfAbsent(name, n -> new Tally());
  }

  private void walk(String name, BTreeMap<?, ?> map) throws Exception {
    Method nodeSerializer = BTreeMap.class.getDeclaredMethod("getNodeSerializer");
    nodeSerializer.setAccessible(true);
    @SuppressWarnings("unchecked")
    Serializer<Object> nodes = (Serializer<Object>) nodeSerializer.invoke(map);
    Field keysField = BTreeMapJava.Node.class.getDeclaredField("keys");
    Field valuesField = BTreeMapJava.Node.class.getDeclaredField("values");
    Field flagsField = BTreeMapJava.Node.class.getDeclaredField("flags");
    keysField.setAccessible(true);
    valuesField.setAccessible(true);
    flagsField.setAccessible(true);
    long root = store.get(map.getRootRecidRecid(), Serializer.RECID);
    tally(name + " meta").add(8);
    Deque<Long> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      long recid = todo.pop();
      byte[] raw = store.get(recid, Serializer.BYTE_ARRAY_NOSIZE);
      BTreeMapJava.Node node = (BTreeMapJava.Node) store.get(recid, nodes);
      Object keys = keysField.get(node);
      if (((byte) flagsField.get(node) & DIR) != 0) {
        tally(name + " dirs").add(raw.length);
        for (long child : node.getChildren()) {
          if (child != 0) {
            todo.push(child);
          }
        }
        continue;
      }
      Tally leaves = tally(name + " leaves");
      leaves.add(raw.length);
      if (keys instanceof KeySerializer.Keys k) {
        leaves.keys += k.size();
        leaves.keyBytes += k.run.length;
      }
      if (!map.getValueInline()) {
        Tally values = tally(name + " values");
        for (long valueRecid : (long[]) valuesField.get(node)) {
          if (valueRecid != 0) {
            values.add(store.get(valueRecid, Serializer.BYTE_ARRAY_NOSIZE).length);
          }
        }
      }
    }
  }
}
