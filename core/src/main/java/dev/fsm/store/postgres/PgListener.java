package dev.fsm.store.postgres;

import dev.fsm.FsmException;
import dev.fsm.store.BreakerNews;
import dev.fsm.store.StoreEvents;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Hears the store's channel on a connection of its own, from a daemon thread, and tells the
 * listeners what other store instances changed. A dropped connection is opened again with
 * backoff; as events may have been missed meanwhile, the listeners are then told that work may
 * have arrived (a lost event only delays what renewals and claims find anyway).
 */
final class PgListener implements AutoCloseable {

  private static final int POLL_MILLIS = 250;
  private static final long MAX_BACKOFF_MILLIS = 5_000;

  private final PgUrl url;
  private final PgTables tables;
  private final String origin;
  private final List<StoreEvents> listeners = new CopyOnWriteArrayList<>();
  private final Thread thread;
  private volatile boolean closed;
  private volatile Connection connection;

  PgListener(PgUrl url, PgTables tables, String origin) {
    this.url = url;
    this.tables = tables;
    this.origin = origin;
    this.thread = new Thread(this::run, "fsm-pg-listener");
    thread.setDaemon(true);
  }

  /** Adds a listener; the first one starts the thread. */
  synchronized void add(StoreEvents events) {
    listeners.add(events);
    if (!thread.isAlive() && !closed) {
      thread.start();
    }
  }

  /** True once the channel is being heard (for tests: a notification sent now arrives). */
  boolean listening() {
    return connection != null;
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      thread.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    long backoff = 100;
    while (!closed) {
      try (Connection c = PgLink.connect(url)) {
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
          s.execute("LISTEN \"" + tables.channel() + "\"");
        }
        connection = c;
        backoff = 100;
        // Also at the first connection: a runner may have read the store before it listened.
        listeners.forEach(StoreEvents::heardAgain);
        PGConnection pg = c.unwrap(PGConnection.class);
        while (!closed) {
          PGNotification[] got = pg.getNotifications(POLL_MILLIS);
          if (got != null) {
            for (PGNotification n : got) {
              deliver(n.getParameter());
            }
          }
        }
      } catch (SQLException | FsmException e) {
        connection = null;
        if (!closed) {
          sleep(backoff);
          backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
        }
      } finally {
        connection = null;
      }
    }
  }

  /**
   * {@code ORIGIN work}, {@code ORIGIN ID EVENT} or {@code ORIGIN !breaker …}; this store's own
   * news is not told.
   */
  private void deliver(String payload) {
    int space = payload.indexOf(' ');
    if (space < 0 || payload.substring(0, space).equals(origin)) {
      return;
    }
    String rest = payload.substring(space + 1);
    int next = rest.indexOf(' ');
    Optional<BreakerNews> breaker = PgBreakerNews.parse(rest);
    for (StoreEvents l : listeners) {
      try {
        if (breaker.isPresent()) {
          l.breakerChanged(breaker.get());
        } else if (next < 0) {
          l.workArrived();
        } else {
          l.taskChanged(rest.substring(0, next), rest.substring(next + 1));
        }
      } catch (RuntimeException e) {
        // A listener's failure must not stop the others from hearing, nor this thread.
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
