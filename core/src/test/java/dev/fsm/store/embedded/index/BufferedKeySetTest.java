package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.mapdb.DB;
import org.mapdb.DBMaker;

/**
 * The due queue's and groups' set with its latest keys on the heap: every read gives what one
 * sorted set would, whichever side a key is on, and a flush leaves MapDB holding them all.
 */
class BufferedKeySetTest {

  private final DB db = DBMaker.memoryDB().make();
  private final NavigableSet<byte[]> stored =
      db.treeSet("s", KeySerializer.INSTANCE).maxNodeSize(8).create();

  private static byte[] key(int n) {
    return new byte[] {(byte) (n >> 8), (byte) n, 1};
  }

  private static List<String> listed(Iterable<byte[]> keys) {
    List<String> all = new ArrayList<>();
    keys.forEach(k -> all.add(Arrays.toString(k)));
    return all;
  }

  private static String shown(byte[] key) {
    return key == null ? null : Arrays.toString(key);
  }

  @Test
  void readsAsOneSortedSetThroughRandomAddsAndRemoves() {
    readsAsOneSortedSet(true);
  }

  @Test
  void readsAsOneSortedSetWithItsHeapKeysHashed() {
    readsAsOneSortedSet(false);
  }

  private void readsAsOneSortedSet(boolean ordered) {
    BufferedKeySet set = new BufferedKeySet(stored, 16, ordered);
    TreeSet<byte[]> model = new TreeSet<>(Arrays::compareUnsigned);
    Random random = new Random(21);
    for (int step = 0; step < 5_000; step++) {
      byte[] k = key(random.nextInt(400));
      if (random.nextInt(3) == 0) {
        assertThat(set.remove(k)).isEqualTo(model.remove(k));
      } else {
        assertThat(set.add(k)).isEqualTo(model.add(k));
      }
      if (step % 500 == 499) {
        set.flush();
        assertThat(set.buffered()).isZero();
      }
      byte[] probe = key(random.nextInt(420));
      assertThat(set.contains(probe)).isEqualTo(model.contains(probe));
      assertThat(shown(set.ceiling(probe))).isEqualTo(shown(model.ceiling(probe)));
      assertThat(shown(set.floor(probe))).isEqualTo(shown(model.floor(probe)));
      assertThat(shown(set.higher(probe))).isEqualTo(shown(model.higher(probe)));
      assertThat(shown(set.lower(probe))).isEqualTo(shown(model.lower(probe)));
      if (step % 50 == 0) {
        byte[] to = key(random.nextInt(420));
        assertThat(listed(set)).isEqualTo(listed(model));
        assertThat(listed(set.descendingSet())).isEqualTo(listed(model.descendingSet()));
        assertThat(listed(set.tailSet(probe, false)))
            .isEqualTo(listed(model.tailSet(probe, false)));
        assertThat(listed(set.headSet(to, true))).isEqualTo(listed(model.headSet(to, true)));
        if (Arrays.compareUnsigned(probe, to) <= 0) {
          assertThat(listed(set.subSet(probe, true, to, false).descendingSet()))
              .isEqualTo(listed(model.subSet(probe, true, to, false).descendingSet()));
        }
        assertThat(set.size()).isEqualTo(model.size());
        if (!model.isEmpty()) {
          assertThat(shown(set.first())).isEqualTo(shown(model.first()));
          assertThat(shown(set.last())).isEqualTo(shown(model.last()));
        }
      }
    }
  }

  @Test
  void keepsKeysOnTheHeapUntilAWindowOfAddsPassedThem() {
    BufferedKeySet set = new BufferedKeySet(stored, 3, true);
    set.add(key(1));
    set.add(key(2));
    set.remove(key(2));
    set.add(key(3));
    assertThat(stored).isEmpty();
    set.add(key(4));
    // Four adds: the oldest, key 1, has had three after it and goes to MapDB; key 2 is gone.
    assertThat(listed(stored)).containsExactly(Arrays.toString(key(1)));
    assertThat(set.buffered()).isEqualTo(2);
    set.remove(key(1));
    assertThat(stored).isEmpty();
    set.flush();
    assertThat(listed(stored)).containsExactly(Arrays.toString(key(3)), Arrays.toString(key(4)));
  }

  @Test
  void aKeyAddedAgainCountsItsWindowFromItsLatestAdd() {
    BufferedKeySet set = new BufferedKeySet(stored, 3, true);
    set.add(key(1));
    set.remove(key(1));
    set.add(key(1));
    set.add(key(2));
    set.add(key(3));
    // Four adds, but the oldest was removed: key 1's latest add has only two after it.
    assertThat(stored).isEmpty();
    assertThat(set.buffered()).isEqualTo(3);
  }

  @Test
  void aHashedSetsSortedKeysFollowEveryChangeBetweenReadsHoweverMany() {
    BufferedKeySet set = new BufferedKeySet(stored, 100_000, false);
    TreeSet<byte[]> model = new TreeSet<>(Arrays::compareUnsigned);
    Random random = new Random(8);
    for (int changes : new int[] {0, 1, 10, 1_500, 5_000, 3}) {
      for (int i = 0; i < changes; i++) {
        byte[] k = key(random.nextInt(3_000));
        if (random.nextBoolean()) {
          set.add(k);
          model.add(k);
        } else {
          set.remove(k);
          model.remove(k);
        }
      }
      byte[] from = key(random.nextInt(1_500));
      assertThat(listed(set.subSet(from, true, key(3_000), false)))
          .isEqualTo(listed(model.subSet(from, true, key(3_000), false)));
      assertThat(listed(set)).isEqualTo(listed(model));
    }
  }

  @Test
  void aKeyAlreadyStoredIsNotAddedTwice() {
    stored.add(key(7));
    BufferedKeySet set = new BufferedKeySet(stored, 8, false);
    assertThat(set.add(key(7))).isFalse();
    assertThat(set.buffered()).isZero();
    assertThat(set.remove(key(7))).isTrue();
    assertThat(set.isEmpty()).isTrue();
  }

  @Test
  void viewsAreReadOnlyAndAnEmptySetHasNoFirst() {
    BufferedKeySet set = new BufferedKeySet(stored, 8, false);
    assertThatThrownBy(set::first).isInstanceOf(NoSuchElementException.class);
    assertThatThrownBy(set::last).isInstanceOf(NoSuchElementException.class);
    set.add(key(1));
    NavigableSet<byte[]> view = set.tailSet(key(0), true);
    assertThatThrownBy(() -> view.add(key(2))).isInstanceOf(UnsupportedOperationException.class);
    Iterator<byte[]> it = set.iterator();
    it.next();
    assertThatThrownBy(it::remove).isInstanceOf(UnsupportedOperationException.class);
  }
}
