package dev.fsm.store.embedded.index;

import java.util.AbstractSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.SortedSet;

/**
 * A MapDB set of keys with the keys added lately kept on the heap ({@link HeapKeys}), and
 * written to MapDB only once they have stayed for {@code window} adds. A task's due slot and
 * group member come and go within a few transitions (a claim takes the slot its last outcome
 * added), and each MapDB write copies a whole B-tree node; on the heap, a key added and removed
 * again costs two look-ups. Every read merges the two, so no reader can see one without the
 * other; {@link #flush} writes the heap's keys out, as a clean close must. A key is in at most
 * one of the two. Views (sub-sets and the descending set) read through to both and are
 * read-only; iterators do not remove. Not thread-safe, as the index it belongs to.
 */
final class BufferedKeySet extends AbstractSet<byte[]> implements NavigableSet<byte[]> {

  private static final Comparator<byte[]> ASCENDING = HeapKeys.ASCENDING;

  private final HeapKeys heap;
  private final NavigableSet<byte[]> stored;
  private final NavigableSet<byte[]> recent;
  private final Comparator<byte[]> order;
  private final boolean root;

  /**
   * Buffers {@code stored}, writing a key out once {@code window} keys were added after it;
   * {@code ordered} keeps the heap's keys sorted, for a set mostly read in order (an unordered
   * one sorts them for a read, so its views are to be read before the set changes).
   */
  BufferedKeySet(NavigableSet<byte[]> stored, int window, boolean ordered) {
    this(new HeapKeys(stored, window, ordered), stored, null, ASCENDING, true);
  }

  private BufferedKeySet(HeapKeys heap, NavigableSet<byte[]> stored, NavigableSet<byte[]> recent,
      Comparator<byte[]> order, boolean root) {
    this.heap = heap;
    this.stored = stored;
    this.recent = recent;
    this.order = order;
    this.root = root;
  }

  private BufferedKeySet view(NavigableSet<byte[]> stored, NavigableSet<byte[]> recent,
      Comparator<byte[]> order) {
    return new BufferedKeySet(heap, stored, recent, order, false);
  }

  @Override
  public boolean add(byte[] key) {
    writable();
    return heap.add(key);
  }

  @Override
  public boolean remove(Object key) {
    writable();
    return heap.remove(key);
  }

  /** Writes every key kept on the heap to MapDB, in order. */
  void flush() {
    writable();
    heap.flush();
  }

  /** Keys on the heap, not yet written to MapDB. */
  int buffered() {
    return heap.size();
  }

  /** The heap's keys in this view's range: all of them, sorted, for the set itself. */
  private NavigableSet<byte[]> recent() {
    return recent != null ? recent : heap.keys();
  }

  private void writable() {
    if (!root) {
      throw new UnsupportedOperationException("a view of a buffered set is read-only");
    }
  }

  @Override
  public boolean contains(Object key) {
    return (recent != null ? recent.contains(key) : heap.contains(key)) || stored.contains(key);
  }

  @Override
  public boolean isEmpty() {
    return (recent != null ? recent.isEmpty() : heap.size() == 0) && stored.isEmpty();
  }

  /** Counts every stored key, as MapDB's sets do: avoid on large sets. */
  @Override
  public int size() {
    return (recent != null ? recent.size() : heap.size()) + stored.size();
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
    byte[] first = earlier(firstOf(stored), firstOf(recent()));
    if (first == null) {
      throw new NoSuchElementException();
    }
    return first;
  }

  /**
   * The set's first key, or null. Not {@code isEmpty()} first: on MapDB that may walk from the
   * front of the tree, which after a long run is a chain of emptied nodes (see {@code
   * TaskQueues#check}), where a descending view's first key is on the rightmost path.
   */
  private static byte[] firstOf(NavigableSet<byte[]> set) {
    try {
      return set.first();
    } catch (NoSuchElementException empty) {
      return null;
    }
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
    return view(stored.subSet(from, fromIncluded, to, toIncluded),
        recent().subSet(from, fromIncluded, to, toIncluded), order);
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
