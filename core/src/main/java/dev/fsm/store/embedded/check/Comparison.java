package dev.fsm.store.embedded.check;

import dev.fsm.store.embedded.check.StoreCheckReport.Difference;
import dev.fsm.store.embedded.check.StoreCheckReport.Kind;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.task.Task;
import java.lang.reflect.RecordComponent;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * Compares two indexes' sorted collections in step, entry by entry, keeping the first few
 * differences and counting them all. Both sides share a key order, so one pass suffices.
 */
public final class Comparison {

  /** How many differences are kept to show; more are only counted. */
  public static final int KEPT = 10;

  private final List<Difference> differences = new ArrayList<>();
  private int collections;
  private long entries;
  private long found;

  /**
   * Compares one collection: {@code expected} from the rebuild, {@code actual} from the live
   * index; either may be null when one index lacks the collection.
   */
  public void compare(String name, Object expected, Object actual) {
    collections++;
    if (expected == null || actual == null) {
      note(new Difference(name, "", expected == null ? Kind.EXTRA_IN_INDEX : Kind.MISSING_IN_INDEX,
          "the whole collection"));
      return;
    }
    Comparator<Object> order = comparator(expected);
    Iterator<Map.Entry<Object, Object>> e = entries(expected);
    Iterator<Map.Entry<Object, Object>> a = entries(actual);
    Map.Entry<Object, Object> x = next(e);
    Map.Entry<Object, Object> y = next(a);
    while (x != null || y != null) {
      entries++;
      int c = x == null ? 1 : y == null ? -1 : order.compare(x.getKey(), y.getKey());
      if (c < 0) {
        note(new Difference(name, show(x.getKey()), Kind.MISSING_IN_INDEX, ""));
        x = next(e);
      } else if (c > 0) {
        note(new Difference(name, show(y.getKey()), Kind.EXTRA_IN_INDEX, ""));
        y = next(a);
      } else {
        if (!Objects.deepEquals(x.getKey(), y.getKey())) {
          note(new Difference(name, show(y.getKey()), Kind.DIFFERENT_KEY,
              "the journal has " + show(x.getKey())));
        } else if (!Objects.deepEquals(x.getValue(), y.getValue())) {
          note(new Difference(name, show(x.getKey()), Kind.DIFFERENT_VALUE,
              describe(name, x.getKey(), x.getValue(), y.getValue())));
        }
        x = next(e);
        y = next(a);
      }
    }
  }

  int collections() {
    return collections;
  }

  long entries() {
    return entries;
  }

  public long differencesFound() {
    return found;
  }

  public List<Difference> differences() {
    return List.copyOf(differences);
  }

  private void note(Difference d) {
    found++;
    if (differences.size() < KEPT) {
      differences.add(d);
    }
  }

  @SuppressWarnings("unchecked")
  private static Comparator<Object> comparator(Object collection) {
    Comparator<?> c = collection instanceof SortedMap<?, ?> m ? m.comparator()
        : collection instanceof SortedSet<?> s ? s.comparator() : null;
    if (c == null) {
      throw new IllegalStateException("an index collection is not sorted: "
          + collection.getClass().getName());
    }
    return (Comparator<Object>) c;
  }

  private static Map.Entry<Object, Object> next(Iterator<Map.Entry<Object, Object>> it) {
    return it.hasNext() ? it.next() : null;
  }

  static String show(Object key) {
    if (key instanceof byte[] bytes) {
      return printable(bytes);
    }
    return key instanceof Object[] parts ? Arrays.deepToString(parts) : String.valueOf(key);
  }

  /** A byte key as text: printable ASCII as is, other bytes as \xNN. */
  private static String printable(byte[] bytes) {
    StringBuilder text = new StringBuilder(bytes.length);
    for (byte b : bytes) {
      if (b >= 0x20 && b < 0x7f && b != '\\') {
        text.append((char) b);
      } else {
        text.append(String.format("\\x%02x", b & 0xff));
      }
    }
    return text.toString();
  }

  /** Which fields differ, for task records; otherwise both values. */
  private static String describe(String collection, Object key, Object expected,
      Object actual) {
    if (collection.equals("tasks") && key instanceof byte[] k && expected instanceof byte[] x
        && actual instanceof byte[] y) {
      try {
        return fields(TaskIndex.decode(k, x), TaskIndex.decode(k, y));
      } catch (RuntimeException e) {
        return "the index's record cannot be read (" + e.getMessage() + ")";
      }
    }
    if (expected instanceof byte[] x && actual instanceof byte[] y) {
      return "the index has " + y.length + " bytes, the journal " + x.length;
    }
    return "the index has " + show(actual) + ", the journal " + show(expected);
  }

  private static String fields(Task expected, Task actual) {
    List<String> differ = new ArrayList<>();
    try {
      for (RecordComponent c : Task.class.getRecordComponents()) {
        Object x = c.getAccessor().invoke(expected);
        Object y = c.getAccessor().invoke(actual);
        if (!Objects.equals(x, y)) {
          differ.add(c.getName() + ": index " + y + ", journal " + x);
        }
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
    return differ.isEmpty() ? "same task, other encoding" : String.join("; ", differ);
  }

  /** An iterator over a map's entries or a set's members (with null values). */
  private static Iterator<Map.Entry<Object, Object>> entries(Object collection) {
    if (collection instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Iterator<Map.Entry<Object, Object>> it =
          ((Map<Object, Object>) map).entrySet().iterator();
      return it;
    }
    Iterator<?> members = ((Iterable<?>) collection).iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return members.hasNext();
      }

      @Override
      public Map.Entry<Object, Object> next() {
        return new AbstractMap.SimpleImmutableEntry<>(members.next(), null);
      }
    };
  }
}
