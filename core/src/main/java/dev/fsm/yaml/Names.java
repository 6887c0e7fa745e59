package dev.fsm.yaml;

/**
 * What machine, state and event names may look like. Checked by hand rather than by regex: it
 * runs for every state and event on each start of {@code fsm validate}.
 */
public final class Names {

  private static final int MAX_LENGTH = 63;

  private Names() {}

  /** A machine name: a lowercase letter, then lowercase letters, digits, {@code _} or {@code -}. */
  public static boolean isMachineName(String name) {
    return plain(name, false);
  }

  /** A state or event name: a letter, then letters, digits, {@code _} or {@code -}. */
  public static boolean isStateOrEventName(String name) {
    return plain(name, true);
  }

  private static boolean plain(String name, boolean upperAllowed) {
    if (name.isEmpty() || name.length() > MAX_LENGTH || !letter(name.charAt(0), upperAllowed)) {
      return false;
    }
    for (int i = 1; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!letter(c, upperAllowed) && !(c >= '0' && c <= '9') && c != '_' && c != '-') {
        return false;
      }
    }
    return true;
  }

  private static boolean letter(char c, boolean upperAllowed) {
    return (c >= 'a' && c <= 'z') || (upperAllowed && c >= 'A' && c <= 'Z');
  }
}
