package dev.fsm.engine;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks the parts of an error message that vary between occurrences of one cause, so {@code fsm
 * errors} can group them: {@code connection to 10.0.0.7:5432 refused after 3012 ms} and {@code
 * connection to 10.0.0.9:5432 refused after 15 ms} both become {@code connection to <ip>:<n>
 * refused after <n> ms}. The placeholders, applied in this order (each sees what the ones
 * before left):
 *
 * <ul>
 *   <li>{@code "<text>"} and {@code '<text>'}: a quoted value (fsm's own backquoted names of
 *       states and events are kept: they name the cause);
 *   <li>{@code <url>}: {@code scheme://...};
 *   <li>{@code <id>}: a UUID;
 *   <li>{@code <path>}: a path starting with {@code /}, {@code ./}, {@code ../} or {@code ~/};
 *   <li>{@code <ip>}: an IPv4 address;
 *   <li>{@code <hex>}: {@code 0x...}, or 8 or more hex digits with a letter and a digit among
 *       them (hashes, object ids);
 *   <li>{@code <n>} and its first unit: a duration of several parts as fsm writes them ({@code
 *       2s6ms} and {@code 1h30m} give {@code <n>s} and {@code <n>h}, as {@code 2s} does);
 *   <li>{@code <id>}: a word of 8 or more letters, digits, {@code _} and {@code -} with a letter
 *       and a digit among them (fsm's task ids, {@code order-0042}, request ids);
 *   <li>{@code <n>}: a number not glued to a letter before it ({@code 3012ms} gives {@code
 *       <n>ms}; {@code v2}, {@code utf8} and {@code e2e} stay).
 * </ul>
 *
 * <p>Pure and thread-safe.
 */
public final class ErrorMasks {

  private static final Pattern DOUBLE_QUOTED = Pattern.compile("\"[^\"\\n]*\"");
  private static final Pattern SINGLE_QUOTED = Pattern.compile("(?<!\\w)'[^'\\n]*'(?!\\w)");
  private static final Pattern URL = Pattern.compile(
      "\\b[A-Za-z][A-Za-z0-9+.-]*://[^\\s\"'`<>]+");
  private static final Pattern UUID = Pattern.compile(
      "\\b[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\\b");
  // A path's segments stop at spaces, quotes and brackets; what precedes it is not part of a
  // word, a number or another path (so 10.0.0.7:5432/db and read/write are left alone).
  private static final Pattern PATH = Pattern.compile(
      "(?<![\\w.:/~-])(?:~|\\.{1,2})?(?:/[^\\s/\"'`,:;()<>\\[\\]{}]+)+/?");
  private static final Pattern IPV4 = Pattern.compile(
      "(?<![\\w.])(?:\\d{1,3}\\.){3}\\d{1,3}(?![\\w.]*\\w)");
  private static final Pattern HEX = Pattern.compile(
      "\\b0[xX][0-9A-Fa-f]+\\b|\\b(?=[0-9A-Fa-f]*\\d)(?=[0-9A-Fa-f]*[A-Fa-f])[0-9A-Fa-f]{8,}\\b");
  private static final Pattern ID = Pattern.compile(
      "(?<![\\w-])(?=[\\w-]*\\d)(?=[\\w-]*[A-Za-z])[A-Za-z0-9][\\w-]{7,}(?![\\w-])");
  private static final Pattern COMPOUND_DURATION = Pattern.compile(
      "(?<![A-Za-z0-9_])\\d+(?:\\.\\d+)?([dhms])"
          + "(?:\\d+(?:\\.\\d+)?(?:ms|[dhms]))+(?![A-Za-z0-9_])");
  private static final Pattern NUMBER = Pattern.compile("(?<![A-Za-z0-9_])\\d+(?:\\.\\d+)?");

  private ErrorMasks() {}

  /**
   * The message with the task's own id as {@code <id>} wherever it stands as a word of its own:
   * an id the user chose ({@code A1}, {@code inv_77}) has no shape the patterns below know, but
   * the task it belongs to is known. Ids of one character are left alone: they are too likely
   * to be a word of the message (a state called {@code b}).
   */
  public static String maskId(String message, String taskId) {
    if (taskId.length() < 2 || !message.contains(taskId)) {
      return message;
    }
    StringBuilder out = new StringBuilder(message.length());
    int from = 0;
    for (int at = message.indexOf(taskId); at >= 0; at = message.indexOf(taskId, at + 1)) {
      int end = at + taskId.length();
      if (at < from || wordChar(message, at - 1) || wordChar(message, end)) {
        continue;
      }
      out.append(message, from, at).append("<id>");
      from = end;
    }
    return out.append(message, from, message.length()).toString();
  }

  private static boolean wordChar(String s, int i) {
    if (i < 0 || i >= s.length()) {
      return false;
    }
    char c = s.charAt(i);
    return Character.isLetterOrDigit(c) || c == '_' || c == '-';
  }

  /** The message with its variable parts replaced by placeholders. */
  public static String mask(String message) {
    String m = replace(DOUBLE_QUOTED, message, "\"<text>\"");
    m = replace(SINGLE_QUOTED, m, "'<text>'");
    m = replace(URL, m, "<url>");
    m = replace(UUID, m, "<id>");
    m = replace(PATH, m, "<path>");
    m = replace(IPV4, m, "<ip>");
    m = replace(HEX, m, "<hex>");
    m = COMPOUND_DURATION.matcher(m).replaceAll("<n>$1");
    m = replace(ID, m, "<id>");
    return replace(NUMBER, m, "<n>");
  }

  private static String replace(Pattern p, String text, String placeholder) {
    Matcher m = p.matcher(text);
    return m.find() ? m.replaceAll(Matcher.quoteReplacement(placeholder)) : text;
  }
}
