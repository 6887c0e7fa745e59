package dev.fsm.store.postgres;

import dev.fsm.FsmException;
import dev.fsm.store.StoreUnavailableException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;

/**
 * PostgreSQL's errors as fsm's one-line messages, naming the server and what to do; problems of
 * reaching the server become {@link StoreUnavailableException}, which a runner rides through.
 */
final class PgErrors {

  /** The server's reason is cut here, so a message stays one readable line. */
  private static final int MAX_REASON = 300;

  private PgErrors() {}

  /** True when the connection that threw is of no further use. */
  static boolean broken(SQLException e) {
    String state = e.getSQLState();
    return state == null || state.startsWith("08") || state.startsWith("57P")
        || state.equals("53300") || e.getCause() instanceof java.io.IOException;
  }

  /** True for a conflict that running the transaction again resolves. */
  static boolean retryable(SQLException e) {
    return "40001".equals(e.getSQLState()) || "40P01".equals(e.getSQLState());
  }

  /** The failure to connect to {@code url}'s server, as one line. */
  static FsmException connecting(PgUrl url, SQLException e) {
    String at = "PostgreSQL at " + url.where();
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    Throwable cause = rootCause(e);
    if (cause instanceof UnknownHostException) {
      return new FsmException("cannot reach " + at + ": unknown host `" + url.host()
          + "`; check the host in --store or $FSM_STORE");
    }
    if (cause instanceof ConnectException || cause instanceof NoRouteToHostException) {
      return new StoreUnavailableException("cannot reach " + at + ": connection refused; check"
          + " that the server runs and listens there, and the host and port in --store");
    }
    if (cause instanceof SocketTimeoutException || state.equals("08001")
        && String.valueOf(e.getMessage()).contains("timed out")) {
      return new StoreUnavailableException("cannot reach " + at + ": no answer within the"
          + " connect timeout; check the host, port and network (connectTimeout=SECONDS in the"
          + " URL waits longer)");
    }
    return switch (state) {
      case "28P01" -> new FsmException(at + " refused user `" + url.user() + "`: wrong"
          + " password; give it in the URL, in $PGPASSWORD or in ~/.pgpass");
      case "08004" -> String.valueOf(e.getMessage()).contains("SSL")
          ? new FsmException(at + " refused the connection: " + firstLine(e) + "; check sslmode"
              + " in --store")
          : String.valueOf(e.getMessage()).contains("password")
          ? new FsmException(at + " asks user `" + url.user() + "` for a password and none was"
              + " given; give it in the URL, in $PGPASSWORD or in ~/.pgpass")
          : new StoreUnavailableException(at + " refused the connection: " + firstLine(e));
      case "28000" -> new FsmException(at + " does not let user `" + url.user() + "` in: "
          + firstLine(e) + "; check the user, or the server's pg_hba.conf");
      case "3D000" -> new FsmException("database `" + url.database() + "` does not exist at "
          + url.host() + ":" + url.port() + "; create it (createdb " + url.database()
          + ") or name another in --store");
      case "53300", "57P03" -> new StoreUnavailableException(at + " takes no connection now: "
          + firstLine(e) + "; try again later");
      default -> broken(e)
          ? new StoreUnavailableException("cannot reach " + at + ": " + firstLine(e))
          : new FsmException(at + ": " + firstLine(e));
    };
  }

  /** A failure during a call on an open connection, as one line. */
  static FsmException during(PgUrl url, String what, SQLException failure) {
    // A batch's own message quotes the whole batch; the server's reason is the next one.
    SQLException e = failure instanceof java.sql.BatchUpdateException
        && failure.getNextException() != null ? failure.getNextException() : failure;
    String at = "PostgreSQL at " + url.where();
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    if (state.equals("42501")) {
      return new FsmException("user `" + url.user() + "` may not " + what + " in schema `"
          + url.schema() + "` of " + at + ": " + firstLine(e) + "; " + grant(url, firstLine(e))
          + ", or name another schema with ?schema=NAME");
    }
    if (state.equals("42P07")) {
      return new FsmException("schema `" + url.schema() + "` of " + at + " holds tables that"
          + " are not fsm's (" + firstLine(e) + "); give fsm a schema of its own with"
          + " ?schema=NAME in --store");
    }
    if (state.equals("57014")) {
      return new StoreUnavailableException(at + " cancelled the statement to " + what + " (it"
          + " ran past the statement timeout); try again");
    }
    if (state.equals("22021") || state.equals("22P05")) {
      return new FsmException(at + " cannot store the text to " + what + ": it contains a"
          + " character PostgreSQL does not keep (such as NUL)");
    }
    if (broken(e)) {
      return new StoreUnavailableException("lost the connection to " + at + " while trying to "
          + what + " (" + firstLine(e) + "); it is retried on the next call");
    }
    return new FsmException(at + " failed to " + what + ": " + firstLine(e));
  }

  /** The grant that gives what the server's "permission denied for ..." says is missing. */
  static String grant(PgUrl url, String denial) {
    String to = " TO " + url.user();
    if (denial.contains("permission denied for table")
        || denial.contains("permission denied for sequence")) {
      return "grant it the schema's tables (GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN"
          + " SCHEMA " + url.schema() + to + ")";
    }
    if (denial.contains("permission denied for schema")) {
      return "grant it the schema (GRANT USAGE, CREATE ON SCHEMA " + url.schema() + to + ")";
    }
    if (denial.contains("permission denied for database")) {
      return "grant it the database (GRANT CREATE ON DATABASE " + url.database() + to + ")";
    }
    return "ask the database's owner for the rights the server names";
  }

  static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage()).strip();
    int nl = m.indexOf('\n');
    m = nl < 0 ? m : m.substring(0, nl).strip();
    m = m.endsWith(".") ? m.substring(0, m.length() - 1) : m;
    return m.length() > MAX_REASON ? m.substring(0, MAX_REASON) + "…" : m;
  }

  private static Throwable rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }
}
