package dev.fsm.task;

import java.util.regex.Pattern;

/** What a task id may be, wherever one comes from: a start, a generated id, an import. */
public final class TaskIdRule {

  /** The rule in words, for messages. */
  public static final String WORDS =
      "use 1 to 128 letters, digits and . _ : @ -, starting with a letter or digit";

  private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}");

  private TaskIdRule() {}

  /** True when {@code id} keeps the rule. */
  public static boolean allows(String id) {
    return ALLOWED.matcher(id).matches();
  }

  /** The id as a one-line message shows it: shortened when long, control characters escaped. */
  public static String shown(String id) {
    String cut = id.length() <= 40 ? id : id.substring(0, 37) + "...";
    StringBuilder out = new StringBuilder(cut.length());
    cut.codePoints().forEach(c -> {
      if (Character.isISOControl(c)) {
        out.append(c == '\n' ? "\\n" : c == '\t' ? "\\t" : String.format("\\u%04x", c));
      } else {
        out.appendCodePoint(c);
      }
    });
    return out.toString();
  }
}
