package dev.fsm.store.postgres;

import dev.fsm.UsageException;
import dev.fsm.store.StoreLocation;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import org.postgresql.PGProperty;

/**
 * A PostgreSQL store's URL as {@code --store} gives it,
 * {@code postgresql://[user[:password]@]host[:port]/database[?schema=NAME&…]} (or {@code
 * postgres://}), percent-decoded. Every parameter but {@code schema} goes to the driver; a
 * password may also come from {@code PGPASSWORD} or, through the driver, {@code ~/.pgpass}.
 *
 * @param host the server's host name or address ({@code ::1} for {@code [::1]})
 * @param port its port, 5432 by default
 * @param database the database
 * @param user the user: from the URL, else {@code PGUSER}, else the operating system's user
 * @param password the password from the URL or {@code PGPASSWORD}, or null for the driver to
 *     find in {@code ~/.pgpass}
 * @param schema the schema fsm keeps its tables in, {@code fsm} by default
 * @param parameters the driver's parameters, in the URL's order
 */
public record PgUrl(String host, int port, String database, String user, String password,
    String schema, Map<String, String> parameters) {

  /** The schema when the URL names none. */
  public static final String DEFAULT_SCHEMA = "fsm";

  private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
  private static final int DEFAULT_PORT = 5432;

  public PgUrl {
    parameters = Map.copyOf(parameters);
  }

  /** Parses {@code text} with the process's environment for the defaults. */
  public static PgUrl parse(String text) {
    return parse(text, System.getenv());
  }

  /**
   * Parses {@code text}, taking {@code PGUSER} and {@code PGPASSWORD} from {@code env}.
   *
   * @throws UsageException naming {@code --store} and what is wrong, without the password
   */
  public static PgUrl parse(String text, Map<String, String> env) {
    String rest;
    if (text.startsWith("postgresql://")) {
      rest = text.substring("postgresql://".length());
    } else if (text.startsWith("postgres://")) {
      rest = text.substring("postgres://".length());
    } else {
      throw bad(text, "it must start with postgresql:// or postgres://");
    }
    int firstQuery = rest.indexOf('?');
    int firstSlash = rest.indexOf('/');
    String beforeQuery = firstQuery < 0 ? rest : rest.substring(0, firstQuery);
    boolean atInPath = firstSlash >= 0 && beforeQuery.lastIndexOf('@') > firstSlash;
    // A query before any /DATABASE is no URL of a database: a ? in the password, most likely.
    boolean atAfterEarlyQuery = firstQuery >= 0 && (firstSlash < 0 || firstQuery < firstSlash)
        && rest.indexOf('@', firstQuery) >= 0;
    if (atInPath || atAfterEarlyQuery) {
      // An @ after the host: a password with @, / or ? in it, not encoded. Nothing of what the
      // parts would read as is shown: any of it may be the password.
      throw bad(text, "an @ comes after the host; write @, / and ? in a user name or password"
          + " percent-encoded (%40, %2F, %3F)");
    }
    String query = "";
    int q = rest.indexOf('?');
    if (q >= 0) {
      query = rest.substring(q + 1);
      rest = rest.substring(0, q);
    }
    int slash = rest.indexOf('/');
    String authority = slash < 0 ? rest : rest.substring(0, slash);
    String path = slash < 0 ? "" : rest.substring(slash + 1);
    String user = null;
    String password = null;
    int at = authority.lastIndexOf('@');
    if (at >= 0) {
      String info = authority.substring(0, at);
      authority = authority.substring(at + 1);
      int colon = info.indexOf(':');
      user = decode(text, colon < 0 ? info : info.substring(0, colon));
      password = colon < 0 ? null : decode(text, info.substring(colon + 1));
      if (user.isEmpty()) {
        user = null;
      }
    }
    String host;
    String portText = null;
    if (authority.startsWith("[")) {
      int close = authority.indexOf(']');
      if (close < 0) {
        throw bad(text, "the host's [ has no ]");
      }
      host = authority.substring(1, close);
      String after = authority.substring(close + 1);
      if (!after.isEmpty()) {
        if (!after.startsWith(":")) {
          throw bad(text, "after the host [" + host + "] comes `" + after + "`, not :PORT");
        }
        portText = after.substring(1);
      }
    } else {
      int colon = authority.indexOf(':');
      host = colon < 0 ? authority : authority.substring(0, colon);
      portText = colon < 0 ? null : authority.substring(colon + 1);
      host = decode(text, host);
    }
    if (host.isEmpty()) {
      throw bad(text, "it names no host (postgresql://HOST/DATABASE)");
    }
    if (host.contains(",")) {
      throw bad(text, "it names several hosts; fsm takes one (HOST[:PORT])");
    }
    int port = port(text, portText);
    String database = decode(text, path);
    if (database.isEmpty()) {
      throw bad(text, "it names no database (postgresql://HOST/DATABASE)");
    }
    if (database.contains("/")) {
      throw bad(text, "the database `" + database + "` contains /");
    }
    String schema = DEFAULT_SCHEMA;
    Map<String, String> parameters = new LinkedHashMap<>();
    Set<String> given = new HashSet<>();
    for (String pair : query.isEmpty() ? new String[0] : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = decode(text, eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(text, pair.substring(eq + 1));
      if (!given.add(key)) {
        throw bad(text, "the parameter `" + key + "` is given twice; give it once");
      }
      if (key.equals("schema")) {
        schema = value;
      } else if (PGProperty.forName(key) == null) {
        throw bad(text, "the parameter `" + key + "` is not one PostgreSQL's driver knows"
            + " (such as sslmode, connectTimeout, schema)");
      } else {
        parameters.put(key, value);
      }
    }
    if (!SCHEMA.matcher(schema).matches()) {
      throw bad(text, "the schema `" + schema + "` is not a plain identifier (a-z, 0-9 and _,"
          + " not starting with a digit, at most 63)");
    }
    if (user == null) {
      user = parameters.remove("user");
    }
    if (user == null || user.isEmpty()) {
      String fromEnv = env.get("PGUSER");
      user = fromEnv != null && !fromEnv.isEmpty() ? fromEnv : System.getProperty("user.name");
    }
    if (password == null) {
      password = parameters.remove("password");
    }
    if (password == null) {
      String fromEnv = env.get("PGPASSWORD");
      password = fromEnv != null && !fromEnv.isEmpty() ? fromEnv : null;
    }
    parameters.remove("user");
    parameters.remove("password");
    return new PgUrl(host, port, database, user, password, schema, parameters);
  }

  /** Host, port and database, as messages name the server: {@code db.example:5432/orders}. */
  public String where() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port + "/" + database;
  }

  /** The URL for the JDBC driver; the user, password and parameters go in {@link #properties}. */
  public String jdbcUrl() {
    String h = host.contains(":") ? "[" + host + "]" : host;
    return "jdbc:postgresql://" + h + ":" + port + "/"
        + URLEncoder.encode(database, StandardCharsets.UTF_8);
  }

  /** The driver's properties: the URL's parameters with fsm's defaults under them. */
  public Properties properties(int connectSeconds) {
    Properties p = new Properties();
    p.setProperty("ApplicationName", "fsm");
    p.setProperty("connectTimeout", Integer.toString(connectSeconds));
    p.setProperty("loginTimeout", Integer.toString(connectSeconds));
    p.setProperty("tcpKeepAlive", "true");
    p.setProperty("reWriteBatchedInserts", "true");
    parameters.forEach(p::setProperty);
    p.setProperty("user", user);
    if (password != null) {
      p.setProperty("password", password);
    }
    return p;
  }

  /** A text with the password masked, for a message: never print a password. */
  public static String masked(String text) {
    return StoreLocation.Database.masked(text);
  }

  @Override
  public String toString() {
    return "postgresql://" + user + "@" + where() + "?schema=" + schema;
  }

  private static int port(String text, String portText) {
    if (portText == null || portText.isEmpty()) {
      return DEFAULT_PORT;
    }
    try {
      int port = Integer.parseInt(portText);
      if (port >= 1 && port <= 65535 && portText.chars().allMatch(Character::isDigit)) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw bad(text, "the port `" + portText + "` is not a number from 1 to 65535");
  }

  /** Percent-decoding as in URLs, where + stays a plus (RFC 3986, as libpq). */
  private static String decode(String text, String part) {
    if (part.indexOf('%') < 0) {
      return part;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < part.length(); i++) {
      char c = part.charAt(i);
      if (c == '%') {
        if (i + 2 >= part.length() || Character.digit(part.charAt(i + 1), 16) < 0
            || Character.digit(part.charAt(i + 2), 16) < 0) {
          throw bad(text, "a % is not followed by two hex digits (write %25 for a %)");
        }
        bytes.write(Integer.parseInt(part.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < part.length()) {
          b = part.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        bytes.write(b, 0, b.length);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static UsageException bad(String text, String what) {
    return new UsageException("--store " + masked(text) + ": " + what);
  }
}
