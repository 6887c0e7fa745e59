package dev.fsm.store.postgres;

import dev.fsm.store.BreakerNews;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * Breaker news as a notification's text: {@code !breaker MACHINE open UNTIL_MS COOLDOWN_MS RATE
 * ATTEMPTS} or {@code !breaker MACHINE closed}. A task id never starts with {@code !}, so the
 * listener tells the two kinds of news apart.
 */
final class PgBreakerNews {

  static final String PREFIX = "!breaker ";

  private PgBreakerNews() {}

  static String text(BreakerNews news) {
    if (!news.open()) {
      return PREFIX + news.machine() + " closed";
    }
    return PREFIX + news.machine() + " open " + news.until().toEpochMilli() + " "
        + news.cooldown().toMillis() + " " + String.format(Locale.ROOT, "%.6f", news.errorRate())
        + " " + news.attempts();
  }

  /** The news in {@code text}, if it is well formed breaker news. */
  static Optional<BreakerNews> parse(String text) {
    if (!text.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String[] f = text.substring(PREFIX.length()).split(" ");
    try {
      if (f.length == 2 && f[1].equals("closed")) {
        return Optional.of(BreakerNews.closed(f[0]));
      }
      if (f.length == 6 && f[1].equals("open")) {
        return Optional.of(new BreakerNews(f[0], true, Instant.ofEpochMilli(Long.parseLong(f[2])),
            Duration.ofMillis(Long.parseLong(f[3])), Double.parseDouble(f[4]),
            Integer.parseInt(f[5])));
      }
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }
}
