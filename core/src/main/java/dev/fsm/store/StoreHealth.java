package dev.fsm.store;

import java.util.List;

/**
 * What {@code fsm store check} finds in a store that has no journal to compare its tables with
 * (a database): facts worth knowing, and problems that need the operator.
 *
 * @param store the store as the user named it (a URL's password masked)
 * @param facts what was measured, in the order shown
 * @param problems what is wrong, each one line saying what to do; none when healthy
 */
public record StoreHealth(String store, List<Fact> facts, List<String> problems) {

  public StoreHealth {
    facts = List.copyOf(facts);
    problems = List.copyOf(problems);
  }

  /** True when nothing needs the operator. */
  public boolean healthy() {
    return problems.isEmpty();
  }

  /** One measured fact, such as {@code schema version: 2}. */
  public record Fact(String name, String value) {}
}
