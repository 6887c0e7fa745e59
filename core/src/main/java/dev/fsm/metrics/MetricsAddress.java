package dev.fsm.metrics;

import dev.fsm.UsageException;

/**
 * Where {@code fsm run --metrics HOST:PORT} serves: {@code HOST:PORT}, {@code :PORT} (every
 * interface) or {@code [IPV6]:PORT}; port 0 takes any free port.
 *
 * @param host the host name or address to listen on; empty for every interface
 * @param port 0 to 65535
 */
public record MetricsAddress(String host, int port) {

  /** The option the address comes from, for messages. */
  static final String OPTION = "--metrics";

  /**
   * The address {@code text} names.
   *
   * @throws UsageException naming the option and the expected form when it is malformed
   */
  public static MetricsAddress parse(String text) {
    if (text.isBlank()) {
      throw new UsageException(OPTION + " needs HOST:PORT, such as 127.0.0.1:9464, or :9464 for"
          + " every interface (port 0: any free port)");
    }
    if (text.contains("/")) {
      throw malformed(text, "no scheme or path: metrics are always served at /metrics");
    }
    int colon = text.lastIndexOf(':');
    if (colon < 0) {
      throw malformed(text, "no port");
    }
    String host = text.substring(0, colon);
    String port = text.substring(colon + 1);
    if (host.startsWith("[") != host.endsWith("]") || host.equals("[")) {
      throw malformed(text, "an IPv6 address goes in brackets, as in [::1]:9464");
    }
    if (host.startsWith("[")) {
      host = host.substring(1, host.length() - 1);
      if (host.isEmpty()) {
        throw malformed(text, "empty brackets");
      }
    } else if (host.contains(":")) {
      throw malformed(text, "an IPv6 address goes in brackets, as in [::1]:9464");
    }
    if (host.chars().anyMatch(c -> Character.isWhitespace(c) || c == '@')) {
      throw malformed(text, "`" + host + "` is not a host name or address");
    }
    if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(Character::isDigit)) {
      throw malformed(text, "`" + port + "` is not a port number");
    }
    int number = Integer.parseInt(port);
    if (number > 65535) {
      throw malformed(text, "port " + number + " is over 65535");
    }
    return new MetricsAddress(host, number);
  }

  /** As the user would write it: {@code HOST:PORT}, {@code :PORT}, {@code [::1]:PORT}. */
  public String text() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  private static UsageException malformed(String text, String why) {
    return new UsageException(OPTION + " " + text + ": " + why + "; give HOST:PORT, such as"
        + " 127.0.0.1:9464, or :9464 for every interface (port 0: any free port)");
  }
}
