package dev.fsm.cli.complete;

import java.util.ArrayList;
import java.util.List;

/** Undoes bash's splitting of {@code --option=value} into three words at the {@code =}. */
final class BashWords {

  private BashWords() {}

  /** The words with each {@code --option}, {@code =}, {@code value} run joined again. */
  static List<String> merge(List<String> words) {
    List<String> merged = new ArrayList<>();
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (w.equals("=") && !merged.isEmpty() && merged.get(merged.size() - 1).startsWith("--")) {
        String joined = merged.remove(merged.size() - 1) + "=";
        if (i + 1 < words.size()) {
          joined += words.get(++i);
        }
        merged.add(joined);
      } else {
        merged.add(w);
      }
    }
    return merged;
  }

  /** True when the last word is a value bash split from its {@code --option=}. */
  static boolean endsSplitAtEquals(List<String> words) {
    int n = words.size();
    return (n >= 2 && words.get(n - 2).equals("=")) || (n >= 1 && words.get(n - 1).equals("="));
  }
}
