package dev.fsm.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.BreakerNews;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PgBreakerNewsTest {

  @Test
  void newsSurvivesItsText() {
    BreakerNews open = new BreakerNews("order", true, Instant.parse("2026-11-25T06:00:01.250Z"),
        Duration.ofSeconds(60), 0.5, 20);
    assertThat(PgBreakerNews.parse(PgBreakerNews.text(open))).contains(open);
    BreakerNews closed = BreakerNews.closed("order");
    assertThat(PgBreakerNews.parse(PgBreakerNews.text(closed))).contains(closed);
  }

  @Test
  void taskNewsAndGarbageAreNotBreakerNews() {
    assertThat(PgBreakerNews.parse("t1 pause")).isEmpty();
    assertThat(PgBreakerNews.parse("work")).isEmpty();
    assertThat(PgBreakerNews.parse("!breaker order open x 1 0.5 2")).isEmpty();
    assertThat(PgBreakerNews.parse("!breaker order ajar")).isEmpty();
  }
}
