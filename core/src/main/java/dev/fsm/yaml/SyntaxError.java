package dev.fsm.yaml;

import dev.fsm.diagnostic.Position;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A YAML syntax error in words, at the line where the mistake is. SnakeYAML reports where it
 * gave up, which for the common mistakes is a line late (a missing {@code :} is found on the
 * next key, an unclosed quote or bracket at the end of the file) and in parser terms ("mapping
 * values are not allowed here"). Called by {@link YamlFile} for each such error.
 *
 * @param at the position of the mistake, 1-based
 * @param message what is wrong, in words
 * @param hint how to fix it, or null
 */
record SyntaxError(Position at, String message, String hint) {

  /** A line's key, as in {@code   run: x} or {@code - name: y}, before its {@code :}. */
  private static final Pattern KEY_LINE =
      Pattern.compile("^(\\s*)(?:-\\s+)?([^\\s#:\"'{\\[][^#:]*?|\"[^\"]*\"|'[^']*'):(\\s|$)");

  /** Translates SnakeYAML's error about {@code text}, or returns null when it cannot. */
  static SyntaxError of(MarkedYAMLException e, String text) {
    String problem = e.getProblem() == null ? "" : e.getProblem();
    String context = e.getContext() == null ? "" : e.getContext();
    Mark problemMark = e.getProblemMark();
    Mark contextMark = e.getContextMark();
    List<String> lines = text.lines().toList();
    if (problem.contains("(TAB)") && problemMark != null) {
      return tab(problemMark, lines);
    }
    if (context.startsWith("while scanning a quoted scalar") && contextMark != null) {
      char quote = charAt(lines, contextMark);
      return new SyntaxError(at(contextMark), "the quote `" + quote + "` opened here is never"
          + " closed", "end the value with " + quote + "; write a " + quote + " inside it as "
          + (quote == '"' ? "\\\"" : "''"));
    }
    if (context.startsWith("while parsing a flow") && contextMark != null) {
      return flow(problem, problemMark, contextMark, text, lines);
    }
    if (context.startsWith("while scanning a simple key") && contextMark != null) {
      return missingColon(contextMark.getLine(), lines);
    }
    if (problem.startsWith("mapping values are not allowed here") && problemMark != null) {
      return misplacedColon(problemMark, lines);
    }
    if (context.startsWith("while parsing a block") && problem.startsWith("expected <block end>")
        && problemMark != null) {
      return badIndent(problem, problemMark, lines);
    }
    return null;
  }

  private static SyntaxError tab(Mark mark, List<String> lines) {
    String line = line(lines, mark.getLine());
    boolean indenting = line.substring(0, Math.min(mark.getColumn(), line.length())).isBlank();
    return new SyntaxError(at(mark), indenting ? "a tab in the indentation; YAML indents with"
        + " spaces only" : "a tab where YAML expects a value", "replace the tab with spaces");
  }

  private static SyntaxError flow(String problem, Mark problemMark, Mark contextMark,
      String text, List<String> lines) {
    // When the file ends inside a bracket, SnakeYAML may point at the end instead of the bracket.
    boolean atEnd = problem.contains("<stream end>");
    Mark unclosed = atEnd ? UnclosedBracket.innermost(text) : null;
    Mark open = unclosed != null ? unclosed : contextMark;
    char bracket = charAt(lines, open);
    if (bracket != '[' && bracket != '{') {
      return null;
    }
    char close = bracket == '[' ? ']' : '}';
    if (!atEnd && problemMark != null && problemMark.getLine() == open.getLine()) {
      return new SyntaxError(at(problemMark), "expected `,` or `" + close + "` in the `" + bracket
          + "` opened at column " + (open.getColumn() + 1), "separate its items with commas");
    }
    return new SyntaxError(at(open), "the `" + bracket + "` opened here is never closed",
        "close it with `" + close + "` on the same line, or write its items as indented lines");
  }

  /**
   * SnakeYAML met a {@code key:} where a key cannot be, because the lines before it read as one
   * text with it. The mistake is the first of those lines when it stands where a key would (a
   * key without its colon), else this line, indented under a {@code key: value} line whose value
   * it continues; or, on one line, a value holding {@code ": "}.
   */
  private static SyntaxError misplacedColon(Mark mark, List<String> lines) {
    int lineNo = mark.getLine();
    String line = line(lines, lineNo);
    Matcher key = KEY_LINE.matcher(line);
    if (!key.find() || key.end(2) != mark.getColumn()) {
      return new SyntaxError(at(mark), "`: ` inside a value; YAML reads it as the start of"
          + " another key", "quote the value, like run: \"echo a: b\"");
    }
    int keyLine = -1;
    int firstBare = -1;
    for (int i = lineNo - 1; i >= 0; i--) {
      String previous = withoutComment(line(lines, i));
      if (previous.isBlank()) {
        continue;
      }
      if (KEY_LINE.matcher(previous).find() || previous.strip().startsWith("-")) {
        keyLine = i;
        break;
      }
      firstBare = i;
    }
    String owner = keyLine < 0 ? "" : withoutComment(line(lines, keyLine));
    Matcher ownerKey = KEY_LINE.matcher(owner);
    boolean ownerHasValue = ownerKey.find() && !owner.substring(ownerKey.end()).isBlank();
    if (firstBare >= 0 && !(ownerHasValue && indent(line(lines, firstBare)) > indent(owner))) {
      return missingColon(firstBare, lines);
    }
    if (ownerHasValue && indent(line) > indent(owner)) {
      return new SyntaxError(new Position(lineNo + 1, indent(line) + 1), "`" + key.group(2)
          + ":` is indented deeper than `" + ownerKey.group(2) + ":` on line " + (keyLine + 1)
          + ", whose value is on its line already", "line `" + key.group(2) + ":` up with the"
          + " key it belongs with");
    }
    return new SyntaxError(at(mark), "a `" + key.group(2) + ":` where YAML expects a value",
        "check the indentation of this line and the one before");
  }

  private static SyntaxError missingColon(int lineNo, List<String> lines) {
    String text = withoutComment(line(lines, lineNo)).strip();
    int space = text.indexOf(' ');
    // `machine order` most likely means `machine: order`; `states` alone, `states:`.
    String meant = space < 0 ? text + ":" : text.substring(0, space) + ":"
        + text.substring(space);
    int column = indent(line(lines, lineNo)) + (space < 0 ? text.length() : space) + 1;
    return new SyntaxError(new Position(lineNo + 1, column), "`" + text + "` is not followed"
        + " by `:`", "write `" + meant + "` for a key" + (space < 0 ? "" : " and its value"));
  }

  private static SyntaxError badIndent(String problem, Mark mark, List<String> lines) {
    String line = line(lines, mark.getLine());
    if (problem.endsWith("'}'") || problem.endsWith("']'")) {
      char closing = problem.charAt(problem.length() - 2);
      return new SyntaxError(at(mark), "a `" + closing + "` that closes nothing", "remove it, or"
          + " add the `" + (closing == '}' ? '{' : '[') + "` it belongs to");
    }
    Matcher key = KEY_LINE.matcher(line);
    boolean isKey = key.find();
    if (!isKey && !line.strip().startsWith("-")) {
      return missingColon(mark.getLine(), lines);
    }
    String what = isKey ? "`" + key.group(2) + ":`" : "this line";
    int sibling = previousAtIndent(lines, mark.getLine(), indent(line));
    if (sibling >= 0 && line(lines, sibling).strip().startsWith("-") != !isKey) {
      return new SyntaxError(new Position(mark.getLine() + 1, indent(line) + 1), what
          + (isKey ? " follows list items (`- ...`)" : " follows keys") + " at the same indent;"
          + " a block is a list or a mapping, not both", isKey ? "make the items keys (`name:"
          + " ...`) or this line an item" : "make this line a key, or indent the list under"
          + " a key");
    }
    return new SyntaxError(new Position(mark.getLine() + 1, indent(line) + 1), what
        + " is indented to column " + (indent(line) + 1) + ", which lines up with no key"
        + " above it", "indent it exactly as far as the other keys of its mapping");
  }

  /** The nearest line above {@code lineNo} with content at exactly {@code indent}, or -1. */
  private static int previousAtIndent(List<String> lines, int lineNo, int indent) {
    for (int i = lineNo - 1; i >= 0; i--) {
      String text = withoutComment(line(lines, i));
      if (!text.isBlank() && indent(text) <= indent) {
        return indent(text) == indent ? i : -1;
      }
    }
    return -1;
  }


  private static Position at(Mark mark) {
    return new Position(mark.getLine() + 1, mark.getColumn() + 1);
  }

  private static String line(List<String> lines, int lineNo) {
    return lineNo >= 0 && lineNo < lines.size() ? lines.get(lineNo) : "";
  }

  private static char charAt(List<String> lines, Mark mark) {
    String line = line(lines, mark.getLine());
    return mark.getColumn() < line.length() ? line.charAt(mark.getColumn()) : '?';
  }

  private static int indent(String line) {
    int n = 0;
    while (n < line.length() && line.charAt(n) == ' ') {
      n++;
    }
    return n;
  }

  /** The line without a trailing {@code # comment} (a {@code #} after a space, outside quotes). */
  private static String withoutComment(String line) {
    boolean single = false;
    boolean dbl = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\'' && !dbl) {
        single = !single;
      } else if (c == '"' && !single) {
        dbl = !dbl;
      } else if (c == '#' && !single && !dbl && (i == 0 || line.charAt(i - 1) == ' ')) {
        return line.substring(0, i).stripTrailing();
      }
    }
    return line.stripTrailing();
  }
}
