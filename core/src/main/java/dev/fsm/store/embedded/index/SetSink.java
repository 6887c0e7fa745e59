package dev.fsm.store.embedded.index;

import com.google.common.cache.Cache;
import java.lang.reflect.Field;
import java.util.SortedMap;
import org.mapdb.DB;

/**
 * Builds one of the index's tree sets bottom-up from keys given in ascending order, as MapDB's
 * map sink does for maps. MapDB 3.1 has no set sink, but a tree set is a tree map without values
 * made by the same map maker (see {@link NoValues}); only the catalog's type differs, so it is
 * set to what {@code db.treeSet(name).open()} expects.
 */
final class SetSink {

  private static final String SET_TYPE = "TreeSet";
  private static final String VALUES_FIELD = "_valueSerializer";
  private static final String OPENED_FIELD = "namesInstanciated";

  private final DB db;
  private final String name;
  private final DB.TreeMapSink<byte[], Object> sink;

  SetSink(DB db, String name, int nodeSize) {
    this.db = db;
    this.name = name;
    DB.TreeMapMaker<byte[], Object> maker = new DB.TreeMapMaker<byte[], Object>(db, name, false)
        .keySerializer(KeySerializer.INSTANCE).maxNodeSize(nodeSize);
    this.sink = withNoValues(maker);
  }

  /**
   * The maker's sink, writing values with {@link NoValues}. The maker refuses a value
   * serializer for a set, so its field is set directly, only while the sink is made: the sink
   * keeps it, while the set made at the end must have MapDB's own.
   */
  private static DB.TreeMapSink<byte[], Object> withNoValues(
      DB.TreeMapMaker<byte[], Object> maker) {
    Field values;
    Object own;
    try {
      values = DB.TreeMapMaker.class.getDeclaredField(VALUES_FIELD);
      values.setAccessible(true);
      own = values.get(maker);
      values.set(maker, NoValues.INSTANCE);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("this MapDB's tree map maker has no field "
          + VALUES_FIELD, e);
    }
    try {
      return maker.createFromSink();
    } finally {
      try {
        values.set(maker, own);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** Adds the next key, which must sort after every key added before. */
  void put(byte[] key) {
    sink.put(key, Boolean.TRUE);
  }

  /**
   * Writes the set's last nodes and names it a set in the catalog. The DB keeps the map the sink
   * made as the collection of that name; it is forgotten, so the name opens as a set.
   */
  void create() {
    sink.create();
    SortedMap<String, String> catalog = db.nameCatalogLoad();
    catalog.put(name + DB.Keys.INSTANCE.getType(), SET_TYPE);
    db.nameCatalogSave(catalog);
    try {
      Field opened = DB.class.getDeclaredField(OPENED_FIELD);
      opened.setAccessible(true);
      ((Cache<?, ?>) opened.get(db)).invalidate(name);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("this MapDB's DB has no field " + OPENED_FIELD, e);
    }
  }
}
