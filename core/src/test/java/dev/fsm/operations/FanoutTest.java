package dev.fsm.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FanoutTest {

  @Test
  void resultsComeBackInTheItemsOrderWhateverOrderTheyEndIn() {
    List<Integer> items = IntStream.range(0, 100).boxed().toList();
    try (Fanout fanout = new Fanout("test")) {
      List<Integer> out = fanout.each(items, i -> {
        if (i % 7 == 0) {
          Thread.yield();
        }
        return i * 2;
      });
      assertThat(out).isEqualTo(items.stream().map(i -> i * 2).toList());
    }
  }

  @Test
  void updatesRunTogetherSoTheyCanShareAGroupCommit() {
    // Each of WRITERS items waits for all of them to have started: one at a time, it never ends.
    CountDownLatch all = new CountDownLatch(Fanout.WRITERS);
    List<Integer> items = IntStream.range(0, Fanout.WRITERS).boxed().toList();
    try (Fanout fanout = new Fanout("test")) {
      List<Boolean> met = fanout.each(items, i -> {
        all.countDown();
        try {
          return all.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      assertThat(met).containsOnly(true);
    }
  }

  @Test
  void theFirstFailureInOrderIsThrownOnceEveryItemHasEnded() {
    List<Integer> items = IntStream.range(0, 40).boxed().toList();
    ConcurrentHashMap<Integer, Boolean> ended = new ConcurrentHashMap<>();
    try (Fanout fanout = new Fanout("test")) {
      assertThatThrownBy(() -> fanout.each(items, i -> {
        ended.put(i, true);
        if (i == 5 || i == 30) {
          throw new IllegalArgumentException("item " + i);
        }
        return i;
      })).isInstanceOf(IllegalArgumentException.class).hasMessage("item 5");
      assertThat(ended).hasSize(40);
    }
  }
}
