package dev.fsm.diagnostic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DidYouMeanTest {

  private static final List<String> STATES =
      List.of("pay", "ship", "ship_later", "await_signature", "delivered", "cancelled");

  @Test
  void suggestsTheClosestName() {
    assertThat(DidYouMean.closest("shp", STATES)).contains("ship");
    assertThat(DidYouMean.closest("delivred", STATES)).contains("delivered");
    assertThat(DidYouMean.closest("canceled", STATES)).contains("cancelled");
    assertThat(DidYouMean.closest("ship_latr", STATES)).contains("ship_later");
  }

  @Test
  void aSwapOfNeighbouringLettersIsOneEdit() {
    assertThat(DidYouMean.distance("hsip", "ship")).isEqualTo(1);
    assertThat(DidYouMean.closest("hsip", STATES)).contains("ship");
    assertThat(DidYouMean.closest("tiemout", List.of("timeout", "retry"))).contains("timeout");
  }

  @Test
  void ignoresCaseButNeverSuggestsTheSameName() {
    assertThat(DidYouMean.closest("SHIP", STATES)).contains("ship");
    assertThat(DidYouMean.closest("ship", List.of("ship"))).isEmpty();
  }

  @Test
  void staysQuietWhenNothingIsClose() {
    assertThat(DidYouMean.closest("zzzzzz", STATES)).isEmpty();
    assertThat(DidYouMean.closest("x", List.of("abc"))).isEmpty();
    assertThat(DidYouMean.closest("anything", List.of())).isEmpty();
    assertThat(DidYouMean.hint("zzzzzz", STATES)).isNull();
  }

  @Test
  void allowsMoreEditsForLongerNames() {
    assertThat(DidYouMean.closest("ab", List.of("xy"))).isEmpty();
    assertThat(DidYouMean.closest("ab", List.of("ax"))).contains("ax");
    assertThat(DidYouMean.closest("awaitsignatur", STATES)).contains("await_signature");
    assertThat(DidYouMean.closest("await", STATES)).isEmpty();
  }

  @Test
  void breaksTiesAlphabetically() {
    assertThat(DidYouMean.closest("bat", List.of("cat", "bar", "hat"))).contains("bar");
    assertThat(DidYouMean.closest("bat", List.of("hat", "cat"))).contains("cat");
  }

  @Test
  void formatsAHint() {
    assertThat(DidYouMean.hint("shp", STATES)).isEqualTo("did you mean `ship`?");
  }
}
