package dev.fsm.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ChangeOrderTest {

  @Test
  void aTaskChangedAgainComesOnceAtItsNewestPlace() {
    ChangeOrder order = new ChangeOrder(8);
    for (String id : new String[] {"a", "b", "c", "a", "d", "b"}) {
      order.changed(id);
    }
    assertThat(order.newest(10, Function.identity(), id -> true))
        .containsExactly("b", "d", "a", "c");
    assertThat(order.newest(2, Function.identity(), id -> true)).containsExactly("b", "d");
    assertThat(order.newest(10, Function.identity(), id -> !id.equals("d")))
        .containsExactly("b", "a", "c");
  }

  @Test
  void onlyTheLastChangesWithinTheCapacityAreKept() {
    ChangeOrder order = new ChangeOrder(3);
    for (String id : new String[] {"a", "b", "c", "d", "e"}) {
      order.changed(id);
    }
    assertThat(order.newest(10, Function.identity(), id -> true)).containsExactly("e", "d", "c");
    // "a" changed again, then its older slot is overwritten: that must not drop it.
    ChangeOrder again = new ChangeOrder(3);
    for (String id : new String[] {"a", "b", "a", "c"}) {
      again.changed(id);
    }
    assertThat(again.newest(10, Function.identity(), id -> true)).containsExactly("c", "a", "b");
  }

  @Test
  void aRemovedTaskOrOneThatCannotBeReadIsLeftOut() {
    ChangeOrder order = new ChangeOrder(8);
    order.changed("a");
    order.changed("b");
    order.changed("c");
    order.removed("b");
    assertThat(order.newest(10, Function.identity(), id -> true)).containsExactly("c", "a");
    assertThat(order.newest(10, id -> id.equals("c") ? null : id, id -> true))
        .containsExactly("a");
  }
}
