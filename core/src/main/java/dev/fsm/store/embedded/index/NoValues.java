package dev.fsm.store.embedded.index;

import java.util.Comparator;
import org.mapdb.DataInput2;
import org.mapdb.DataOutput2;
import org.mapdb.serializer.GroupSerializer;

/**
 * The values of a MapDB tree set as {@link SetSink} builds it: none stored, a node's value array
 * being only its count, as in MapDB's own serializer for sets. That one cannot make a value array
 * from a list, which its sink needs, so this one stands in while the set is built; the set is
 * then opened with MapDB's own, which reads the same nodes.
 */
final class NoValues implements GroupSerializer<Object> {

  static final NoValues INSTANCE = new NoValues();

  private NoValues() {}

  @Override
  public void serialize(DataOutput2 out, Object value) {
    throw new UnsupportedOperationException("a set stores no values");
  }

  @Override
  public Object deserialize(DataInput2 in, int available) {
    throw new UnsupportedOperationException("a set stores no values");
  }

  @Override
  public int valueArraySearch(Object values, Object value) {
    throw new UnsupportedOperationException("a set stores no values");
  }

  @SuppressWarnings("rawtypes")
  @Override
  public int valueArraySearch(Object values, Object value, Comparator comparator) {
    throw new UnsupportedOperationException("a set stores no values");
  }

  @Override
  public void valueArraySerialize(DataOutput2 out, Object values) {
    // Nothing is written: a node's key count gives its value count.
  }

  @Override
  public Object valueArrayDeserialize(DataInput2 in, int size) {
    return size;
  }

  @Override
  public Object valueArrayGet(Object values, int pos) {
    return Boolean.TRUE;
  }

  @Override
  public int valueArraySize(Object values) {
    return (Integer) values;
  }

  @Override
  public Object valueArrayEmpty() {
    return 0;
  }

  @Override
  public Object valueArrayPut(Object values, int pos, Object value) {
    return (Integer) values + 1;
  }

  @Override
  public Object valueArrayUpdateVal(Object values, int pos, Object value) {
    return values;
  }

  @Override
  public Object valueArrayFromArray(Object[] values) {
    return values.length;
  }

  @Override
  public Object valueArrayCopyOfRange(Object values, int from, int to) {
    return to - from;
  }

  @Override
  public Object valueArrayDeleteValue(Object values, int pos) {
    return (Integer) values - 1;
  }

  @Override
  public boolean isTrusted() {
    return true;
  }

  @Override
  public int compare(Object a, Object b) {
    throw new UnsupportedOperationException("a set stores no values");
  }
}
