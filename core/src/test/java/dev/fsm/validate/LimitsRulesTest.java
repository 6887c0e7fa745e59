package dev.fsm.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.model.BreakerPolicy;
import dev.fsm.model.Machine;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code concurrency:} and {@code breaker:}: what they read into, and every error's wording. */
class LimitsRulesTest {

  private static String file(String top, String stateExtra) {
    return "machine: m\n" + top + "states:\n  a:\n    run: builtin:noop\n" + stateExtra
        + "    on: {ok: b}\n  b: {final: completed}\n";
  }

  @Test
  void noLimitsByDefault() {
    Machine m = ValidationRulesTest.machine(file("", ""));
    assertThat(m.concurrency()).isNull();
    assertThat(m.breaker()).isNull();
    assertThat(m.state("a").orElseThrow().concurrency()).isNull();
  }

  @Test
  void machineAndStateCaps() {
    Machine m = ValidationRulesTest.machine(file("concurrency: 20\n", "    concurrency: 2\n"));
    assertThat(m.concurrency()).isEqualTo(20);
    assertThat(m.state("a").orElseThrow().concurrency()).isEqualTo(2);
    assertThat(m.state("b").orElseThrow().concurrency()).isNull();
  }

  @Test
  void breakerOnTakesTheDefaultsAndOffIsNone() {
    assertThat(ValidationRulesTest.machine(file("breaker: on\n", "")).breaker())
        .isEqualTo(BreakerPolicy.DEFAULT);
    assertThat(ValidationRulesTest.machine(file("breaker: off\n", "")).breaker()).isNull();
    assertThat(BreakerPolicy.DEFAULT).isEqualTo(new BreakerPolicy(0.5, 20,
        Duration.ofMinutes(1), Duration.ofSeconds(30)));
  }

  @Test
  void aBreakerMappingOverridesSomeDefaults() {
    BreakerPolicy b = ValidationRulesTest.machine(
        file("breaker: {errors: 12.5%, cooldown: 2m}\n", "")).breaker();
    assertThat(b).isEqualTo(new BreakerPolicy(0.125, 20, Duration.ofMinutes(1),
        Duration.ofMinutes(2)));
    assertThat(b.errorsText()).isEqualTo("12.5%");
    assertThat(ValidationRulesTest.machine(
        file("breaker: {errors: 100%, min_attempts: 3, window: 30s}\n", "")).breaker())
        .isEqualTo(new BreakerPolicy(1, 3, Duration.ofSeconds(30), Duration.ofSeconds(30)));
  }

  @Test
  void badCapsAreErrorsWithTheirPlace() {
    assertThat(ValidationRulesTest.lines(file("concurrency: 0\n", ""))).containsExactly(
        "m.yaml:2:14: error: `concurrency` at the top level must be a whole number from 1 to"
            + " 100000, found `0` (for example `concurrency: 4`)");
    assertThat(ValidationRulesTest.lines(file("concurrency: 100001\n", ""))).hasSize(1);
    assertThat(ValidationRulesTest.lines(file("concurrency: -3\n", ""))).hasSize(1);
    assertThat(ValidationRulesTest.lines(file("concurrency: lots\n", ""))).hasSize(1);
    assertThat(ValidationRulesTest.lines(file("", "    concurrency: 2.5\n"))).containsExactly(
        "m.yaml:5:18: error: `concurrency` in state `a` must be a whole number from 1 to"
            + " 100000, found `2.5` (for example `concurrency: 4`)");
  }

  @Test
  void concurrencyIsNotInheritedThroughDefaults() {
    assertThat(ValidationRulesTest.lines(file("defaults: {concurrency: 3}\n", "")))
        .containsExactly("m.yaml:2:12: error: `concurrency` is not inherited through"
            + " `defaults` (set it on the machine (all its attempts) or on a state (that"
            + " state's attempts))");
  }

  @Test
  void aStateCapAboveTheMachinesIsAWarning() {
    assertThat(ValidationRulesTest.lines(file("concurrency: 2\n", "    concurrency: 5\n")))
        .containsExactly("m.yaml:6:5: warning: `concurrency: 5` in state `a` is above the"
            + " machine's `concurrency: 2`, so it never binds (lower it to at most 2, or"
            + " remove it)");
  }

  @Test
  void aCapOnAFinalStateIsAnError() {
    String yaml = "machine: m\nstates:\n  a: {run: builtin:noop, on: {ok: b}}\n"
        + "  b: {final: completed, concurrency: 2}\n";
    assertThat(ValidationRulesTest.lines(yaml)).anyMatch(l -> l.contains(
        "final state `b` cannot have `concurrency`"));
  }

  @Test
  void badBreakersAreErrors() {
    assertThat(ValidationRulesTest.lines(file("breaker: maybe\n", ""))).containsExactly(
        "m.yaml:2:10: error: `breaker` must be `on`, `off` or a mapping, found `maybe` (for"
            + " example {errors: 50%, min_attempts: 20, window: 1m, cooldown: 30s})");
    assertThat(ValidationRulesTest.lines(file("breaker: {errors: 0%}\n", "")))
        .containsExactly("m.yaml:2:19: error: `errors` in `breaker` must be a percentage above"
            + " 0% and at most 100%, found `0%` (for example `errors: 50%`)");
    assertThat(ValidationRulesTest.lines(file("breaker: {errors: 0.5}\n", ""))).hasSize(1);
    assertThat(ValidationRulesTest.lines(file("breaker: {errors: 150%}\n", ""))).hasSize(1);
    assertThat(ValidationRulesTest.lines(file("breaker: {min_attempts: 0}\n", ""))).hasSize(1);
    assertThat(ValidationRulesTest.lines(file("breaker: {window: 0s}\n", ""))).hasSize(1);
    assertThat(ValidationRulesTest.lines(file("breaker: {cooldown: soon}\n", ""))).hasSize(1);
    assertThat(ValidationRulesTest.lines(file("breaker: {cooldwn: 1m}\n", "")))
        .singleElement().asString().contains("unknown key `cooldwn` in `breaker`")
        .contains("cooldown");
  }
}
