package dev.fsm.store.embedded.index;

import java.util.AbstractSet;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A MapDB set of keys with the keys added lately kept on the heap, and written to MapDB only once
 * they have stayed for {@code window} adds. A task's due slot and group member come and go
 * within a few transitions (a claim takes the slot its last outcome added), and each MapDB write
 * copies a whole B-tree node; on the heap, a key added and removed again costs two look-ups.
 * Every read merges the two, so no reader can see one without the other; {@link #flush} writes
 * the heap's keys out, as a clean close must. A key is in at most one of the two. Views (sub-sets
 * and the descending set) read through to both and are read-only; iterators do not remove. Not
 * thread-safe, as the index it belongs to.
 */
final class BufferedKeySet extends AbstractSet<byte[]> implements NavigableSet<byte[]> {

  private static final Comparator<byte[]> ASCENDING = Arrays::compareUnsigned;

  /**
   * One add of a key to the heap, removed once the key is: a key removed and added again is a
   * new add, so the window counts from its latest add, not its first.
   */
  private static final class Added {
    final byte[] key;
    boolean removed;

    Added(byte[] key) {
      this.key = key;
    }
  }

  /** A key hashed, for a set whose heap side is unordered. */
  private static final class Key {
    final byte[] bytes;
    final int hash;

    Key(byte[] bytes) {
      this.bytes = bytes;
      this.hash = Arrays.hashCode(bytes);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /**
   * What the set and all its views share: the whole of both sides and the order of adds. The
   * heap's keys are kept sorted, or, for a set read in order only now and then, hashed and
   * sorted when a read needs them.
   */
  private static final class Sides {
    final NavigableSet<byte[]> stored;
    final TreeMap<byte[], Added> sorted;
    final HashMap<Key, Added> hashed;
    /** The hashed keys sorted, made by a read and dropped by the next change. */
    NavigableSet<byte[]> sortedCopy;
    /** The adds in order, each taken off when {@code window} more came after it. */
    final ArrayDeque<Added> added = new ArrayDeque<>();
    final int window;

    Sides(NavigableSet<byte[]> stored, int window, boolean ordered) {
      this.stored = stored;
      this.window = window;
      this.sorted = ordered ? new TreeMap<>(ASCENDING) : null;
      this.hashed = ordered ? null : new HashMap<>();
    }

    Added putIfAbsent(byte[] key, Added add) {
      if (sorted != null) {
        return sorted.putIfAbsent(key, add);
      }
      sortedCopy = null;
      return hashed.putIfAbsent(new Key(key), add);
    }

    Added remove(Object key) {
      if (sorted != null) {
        return sorted.remove(key);
      }
      Added removed = key instanceof byte[] bytes ? hashed.remove(new Key(bytes)) : null;
      if (removed != null) {
        sortedCopy = null;
      }
      return removed;
    }

    boolean contains(Object key) {
      return sorted != null ? sorted.containsKey(key)
          : key instanceof byte[] bytes && hashed.containsKey(new Key(bytes));
    }

    int size() {
      return sorted != null ? sorted.size() : hashed.size();
    }

    NavigableSet<byte[]> keys() {
      if (sorted != null) {
        return sorted.navigableKeySet();
      }
      if (sortedCopy == null) {
        TreeSet<byte[]> copy = new TreeSet<>(ASCENDING);
        for (Key k : hashed.keySet()) {
          copy.add(k.bytes);
        }
        sortedCopy = copy;
      }
      return sortedCopy;
    }

    /**
     * The hashed keys in a range, sorted: a group's members, say, without sorting every group's
     * (a page of `fsm ls --state` while a runner works).
     */
    NavigableSet<byte[]> between(byte[] from, boolean fromIncluded, byte[] to,
        boolean toIncluded) {
      if (sortedCopy != null) {
        return sortedCopy.subSet(from, fromIncluded, to, toIncluded);
      }
      TreeSet<byte[]> in = new TreeSet<>(ASCENDING);
      for (Key k : hashed.keySet()) {
        int low = ASCENDING.compare(k.bytes, from);
        int high = ASCENDING.compare(k.bytes, to);
        if ((low > 0 || (low == 0 && fromIncluded)) && (high < 0 || (high == 0 && toIncluded))) {
          in.add(k.bytes);
        }
      }
      return in;
    }

    void clear() {
      if (sorted != null) {
        sorted.clear();
      } else {
        hashed.clear();
        sortedCopy = null;
      }
      added.clear();
    }
  }

  private final Sides sides;
  private final NavigableSet<byte[]> stored;
  private final NavigableSet<byte[]> recent;
  private final Comparator<byte[]> order;
  private final boolean root;

  /**
   * Buffers {@code stored}, writing a key out once {@code window} keys were added after it;
   * {@code ordered} keeps the heap's keys sorted, for a set mostly read in order (a read of an
   * unordered one sorts them, and its views read them as they were when made).
   */
  BufferedKeySet(NavigableSet<byte[]> stored, int window, boolean ordered) {
    this(new Sides(stored, window, ordered), stored, null, ASCENDING, true);
  }

  private BufferedKeySet(Sides sides, NavigableSet<byte[]> stored, NavigableSet<byte[]> recent,
      Comparator<byte[]> order, boolean root) {
    this.sides = sides;
    this.stored = stored;
    this.recent = recent;
    this.order = order;
    this.root = root;
  }

  private BufferedKeySet view(NavigableSet<byte[]> stored, NavigableSet<byte[]> recent,
      Comparator<byte[]> order) {
    return new BufferedKeySet(sides, stored, recent, order, false);
  }

  @Override
  public boolean add(byte[] key) {
    writable();
    Added add = new Added(key);
    if (sides.putIfAbsent(key, add) != null) {
      return false;
    }
    if (sides.stored.contains(key)) {
      sides.remove(key);
      return false;
    }
    sides.added.addLast(add);
    while (sides.added.size() > sides.window) {
      Added oldest = sides.added.pollFirst();
      if (!oldest.removed) {
        sides.remove(oldest.key);
        sides.stored.add(oldest.key);
      }
    }
    return true;
  }

  @Override
  public boolean remove(Object key) {
    writable();
    Added add = sides.remove(key);
    if (add != null) {
      add.removed = true;
      return true;
    }
    return sides.stored.remove(key);
  }

  /** Writes every key kept on the heap to MapDB, in order. */
  void flush() {
    writable();
    for (byte[] key : sides.keys()) {
      sides.stored.add(key);
    }
    sides.clear();
  }

  /** Keys on the heap, not yet written to MapDB. */
  int buffered() {
    return sides.size();
  }

  /** The heap's keys in this view's range: all of them, sorted, for the set itself. */
  private NavigableSet<byte[]> recent() {
    return recent != null ? recent : sides.keys();
  }

  private void writable() {
    if (!root) {
      throw new UnsupportedOperationException("a view of a buffered set is read-only");
    }
  }

  @Override
  public boolean contains(Object key) {
    return (recent != null ? recent.contains(key) : sides.contains(key)) || stored.contains(key);
  }

  @Override
  public boolean isEmpty() {
    return (recent != null ? recent.isEmpty() : sides.size() == 0) && stored.isEmpty();
  }

  /** Counts every stored key, as MapDB's sets do: avoid on large sets. */
  @Override
  public int size() {
    return (recent != null ? recent.size() : sides.size()) + stored.size();
  }

  @Override
  public Iterator<byte[]> iterator() {
    return new Merged(stored.iterator(), recent().iterator(), order);
  }

  @Override
  public Iterator<byte[]> descendingIterator() {
    return descendingSet().iterator();
  }

  @Override
  public NavigableSet<byte[]> descendingSet() {
    return view(stored.descendingSet(), recent().descendingSet(), order.reversed());
  }

  @Override
  public Comparator<? super byte[]> comparator() {
    return order;
  }

  @Override
  public byte[] first() {
    byte[] first = earlier(stored.isEmpty() ? null : stored.first(),
        recent().isEmpty() ? null : recent().first());
    if (first == null) {
      throw new NoSuchElementException();
    }
    return first;
  }

  @Override
  public byte[] last() {
    return descendingSet().first();
  }

  @Override
  public byte[] ceiling(byte[] key) {
    return earlier(stored.ceiling(key), recent().ceiling(key));
  }

  @Override
  public byte[] higher(byte[] key) {
    return earlier(stored.higher(key), recent().higher(key));
  }

  @Override
  public byte[] floor(byte[] key) {
    return later(stored.floor(key), recent().floor(key));
  }

  @Override
  public byte[] lower(byte[] key) {
    return later(stored.lower(key), recent().lower(key));
  }

  private byte[] earlier(byte[] a, byte[] b) {
    return a == null ? b : b == null ? a : order.compare(a, b) <= 0 ? a : b;
  }

  private byte[] later(byte[] a, byte[] b) {
    return a == null ? b : b == null ? a : order.compare(a, b) >= 0 ? a : b;
  }

  @Override
  public NavigableSet<byte[]> subSet(byte[] from, boolean fromIncluded, byte[] to,
      boolean toIncluded) {
    NavigableSet<byte[]> heap = recent == null && sides.hashed != null
        ? sides.between(from, fromIncluded, to, toIncluded)
        : recent().subSet(from, fromIncluded, to, toIncluded);
    return view(stored.subSet(from, fromIncluded, to, toIncluded), heap, order);
  }

  @Override
  public NavigableSet<byte[]> headSet(byte[] to, boolean included) {
    return view(stored.headSet(to, included), recent().headSet(to, included), order);
  }

  @Override
  public NavigableSet<byte[]> tailSet(byte[] from, boolean included) {
    return view(stored.tailSet(from, included), recent().tailSet(from, included), order);
  }

  @Override
  public SortedSet<byte[]> subSet(byte[] from, byte[] to) {
    return subSet(from, true, to, false);
  }

  @Override
  public SortedSet<byte[]> headSet(byte[] to) {
    return headSet(to, false);
  }

  @Override
  public SortedSet<byte[]> tailSet(byte[] from) {
    return tailSet(from, true);
  }

  @Override
  public byte[] pollFirst() {
    throw new UnsupportedOperationException("not used by the index");
  }

  @Override
  public byte[] pollLast() {
    throw new UnsupportedOperationException("not used by the index");
  }

  @Override
  public boolean addAll(Collection<? extends byte[]> keys) {
    boolean changed = false;
    for (byte[] k : keys) {
      changed |= add(k);
    }
    return changed;
  }

  /** Two ordered iterators over disjoint keys, merged in {@code order}. */
  private static final class Merged implements Iterator<byte[]> {
    private final Iterator<byte[]> a;
    private final Iterator<byte[]> b;
    private final Comparator<byte[]> order;
    private byte[] nextA;
    private byte[] nextB;

    Merged(Iterator<byte[]> a, Iterator<byte[]> b, Comparator<byte[]> order) {
      this.a = a;
      this.b = b;
      this.order = order;
      this.nextA = a.hasNext() ? a.next() : null;
      this.nextB = b.hasNext() ? b.next() : null;
    }

    @Override
    public boolean hasNext() {
      return nextA != null || nextB != null;
    }

    @Override
    public byte[] next() {
      if (nextA == null && nextB == null) {
        throw new NoSuchElementException();
      }
      byte[] out;
      if (nextB == null || (nextA != null && order.compare(nextA, nextB) <= 0)) {
        out = nextA;
        nextA = a.hasNext() ? a.next() : null;
      } else {
        out = nextB;
        nextB = b.hasNext() ? b.next() : null;
      }
      return out;
    }
  }
}
