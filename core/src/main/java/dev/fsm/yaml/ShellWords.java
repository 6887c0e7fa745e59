package dev.fsm.yaml;

import java.util.ArrayList;
import java.util.List;

/** Splits a command line into words the way a POSIX shell would, without running one. */
public final class ShellWords {

  private ShellWords() {}

  /**
   * The words of a command line: whitespace separates, single quotes keep text as is, double
   * quotes keep spaces and allow backslash escapes, a backslash outside quotes escapes the next
   * character. No expansion of variables, globs or tildes.
   *
   * @throws IllegalArgumentException when a quote is left open or a backslash ends the line
   */
  public static List<String> split(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote == '\'') {
        if (c == '\'') {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (quote == '"') {
        if (c == '"') {
          quote = 0;
        } else if (c == '\\' && i + 1 < line.length() && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
          word.append(line.charAt(++i));
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (c == '\\') {
        if (i + 1 >= line.length()) {
          throw new IllegalArgumentException("a backslash ends the command");
        }
        word.append(line.charAt(++i));
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("unclosed " + (quote == '\'' ? "single" : "double")
          + " quote");
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }
}
