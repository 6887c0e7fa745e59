package dev.fsm.diagnostic;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** Finds the name a user most likely meant when they typed one that does not exist. */
public final class DidYouMean {

  private DidYouMean() {}

  /** The closest candidate within a small edit distance, if any. */
  public static Optional<String> closest(String typed, Collection<String> candidates) {
    String wanted = typed.toLowerCase(Locale.ROOT);
    int allowed = Math.max(1, Math.min(3, wanted.length() / 3));
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      if (candidate.equals(typed)) {
        continue;
      }
      int d = distance(wanted, candidate.toLowerCase(Locale.ROOT));
      if (d < bestDistance || (d == bestDistance && best != null && candidate.compareTo(best) < 0)) {
        best = candidate;
        bestDistance = d;
      }
    }
    return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
  }

  /** A hint like {@code did you mean `ship`?}, or null when nothing is close. */
  public static String hint(String typed, Collection<String> candidates) {
    return closest(typed, candidates).map(c -> "did you mean `" + c + "`?").orElse(null);
  }

  /** Edit distance where swapping two neighbouring letters counts as one edit. */
  static int distance(String a, String b) {
    if (Math.abs(a.length() - b.length()) > 3) {
      return Integer.MAX_VALUE;
    }
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
