package dev.fsm.store.postgres;

import dev.fsm.FsmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One connection to the server behind its own lock, for one role of the store (claims and
 * records, renewals, everything else), so threads of one role queue while the others go on.
 * Every call is one transaction; a connection that broke is dropped and the next call connects
 * again.
 */
final class PgLink implements AutoCloseable {

  /** Seconds to connect before giving up: an unreachable host is an error within seconds. */
  static final int CONNECT_SECONDS = 5;
  /** A statement running longer is cancelled, so a stuck server cannot hang a verb forever. */
  static final String STATEMENT_TIMEOUT = "60s";
  /** fsm never idles in a transaction; this bounds the damage (bloat) if a bug ever does. */
  static final String IDLE_TIMEOUT = "60s";

  private static final int ATTEMPTS = 4;

  /** What a call does on the connection, inside its transaction. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  private final PgUrl url;
  private final ReentrantLock lock = new ReentrantLock();
  private volatile Connection connection;
  private boolean closed;

  private final boolean asynchronous;

  /** A link whose commits wait for the disk. */
  PgLink(PgUrl url) {
    this(url, false);
  }

  /** A link whose commits wait for the disk unless {@code asynchronous}. */
  PgLink(PgUrl url, boolean asynchronous) {
    this.url = url;
    this.asynchronous = asynchronous;
  }

  /**
   * Runs {@code work} in one transaction and commits it; a deadlock or serialization failure is
   * tried again, as is a call on a connection that broke before the commit (on a new one). A
   * SQL error becomes a one-line {@link FsmException}; any other exception {@code work} throws
   * rolls back and reaches the caller as it is.
   *
   * @param what what the call does, for messages ("claim tasks")
   */
  <T> T transaction(String what, Work<T> work) {
    return call(what, work, false);
  }

  /**
   * Runs {@code work}, whose statements each commit by themselves: one round trip fewer than a
   * transaction, for reads and for single statements that may safely run again when a broken
   * connection leaves their outcome unknown (a claim or renewal lost that way only lets its
   * tasks be claimed again at the lease's end).
   */
  <T> T statements(String what, Work<T> work) {
    return call(what, work, true);
  }

  private <T> T call(String what, Work<T> work, boolean autocommit) {
    lock.lock();
    try {
      if (lock.getHoldCount() > 1) {
        return joined(what, work);
      }
      for (int attempt = 1; ; attempt++) {
        boolean fresh = connection == null;
        Connection c = connection();
        boolean committing = false;
        try {
          if (autocommit) {
            c.setAutoCommit(true);
          }
          T result = work.run(c);
          if (autocommit) {
            c.setAutoCommit(false);
          } else {
            committing = true;
            c.commit();
          }
          return result;
        } catch (SQLException e) {
          rollback(c);
          if (PgErrors.broken(e)) {
            drop();
            // A connection that broke while idle (a server restart, a killed backend) rolled
            // back everything: once more on a new one. A failed commit may have committed, so
            // it is reported instead.
            if (!fresh && !committing && attempt < ATTEMPTS) {
              continue;
            }
          } else if (PgErrors.retryable(e) && attempt < ATTEMPTS) {
            continue;
          }
          throw PgErrors.during(url, what, e);
        } catch (RuntimeException | Error e) {
          rollback(c);
          throw e;
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * A call made from inside another call's work on this link (an update's change that reads the
   * task's machine): its statements join that call's transaction. Switching the connection to
   * autocommit, as a call of its own would, commits the transaction half done and lets go of the
   * rows it locked: two processes then both updated a task from what they had read. The outer
   * call commits, rolls back or tries again for both.
   */
  private <T> T joined(String what, Work<T> work) {
    try {
      return work.run(connection());
    } catch (SQLException e) {
      throw PgErrors.during(url, what, e);
    }
  }

  /** Opens a connection with fsm's session settings, in manual commit mode. */
  static Connection connect(PgUrl url) {
    return connect(url, false);
  }

  /**
   * As {@link #connect(PgUrl)}; an {@code asynchronous} connection's commits do not wait for
   * the disk (claims and renewals: losing one in a crash only lets its tasks be claimed again).
   */
  static Connection connect(PgUrl url, boolean asynchronous) {
    try {
      Connection c = DriverManager.getConnection(url.jdbcUrl(), url.properties(CONNECT_SECONDS));
      try (Statement s = c.createStatement()) {
        s.execute("SET statement_timeout = '" + STATEMENT_TIMEOUT + "';"
            + " SET idle_in_transaction_session_timeout = '" + IDLE_TIMEOUT + "';"
            + " SET lock_timeout = '" + STATEMENT_TIMEOUT + "'"
            + (asynchronous ? "; SET synchronous_commit = off" : ""));
      }
      c.setAutoCommit(false);
      return c;
    } catch (SQLException e) {
      throw PgErrors.connecting(url, e);
    }
  }

  /** Closes the connection; a later call is refused. */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      drop();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The server process of the current connection, or 0 when none is open (for tests that cut
   * it); read without the lock, so it answers while a call runs.
   */
  int backendPid() {
    Connection c = connection;
    try {
      return c == null ? 0 : c.unwrap(org.postgresql.PGConnection.class).getBackendPID();
    } catch (SQLException e) {
      return 0;
    }
  }

  private Connection connection() {
    if (closed) {
      throw new IllegalStateException("the store is closed");
    }
    if (connection == null) {
      connection = connect(url, asynchronous);
    }
    return connection;
  }

  private void drop() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        // Closing a broken connection may fail; it is gone either way.
      }
      connection = null;
    }
  }

  private static void rollback(Connection c) {
    try {
      if (c.getAutoCommit()) {
        c.setAutoCommit(false);
        return;
      }
      c.rollback();
    } catch (SQLException e) {
      // A broken connection cannot roll back; the server does when the session ends.
    }
  }
}
