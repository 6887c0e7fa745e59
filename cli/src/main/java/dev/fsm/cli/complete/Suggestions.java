package dev.fsm.cli.complete;

import java.util.List;

/**
 * What completion offers for one word.
 *
 * @param values the words that fit
 * @param files true when the word names a file, which the shell completes itself
 */
public record Suggestions(List<Suggestion> values, boolean files) {

  static Suggestions of(List<Suggestion> values) {
    return new Suggestions(values, false);
  }

  static Suggestions fileNames() {
    return new Suggestions(List.of(), true);
  }
}
