package dev.fsm.yaml;

import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Composes the YAML that machine files are usually written in without SnakeYAML, because
 * SnakeYAML's scanner, parser and composer, run cold, were about half of {@code fsm validate}'s
 * own work. It accepts printable ASCII only: a block mapping of simple keys whose values are
 * nested block mappings, one-line plain or quoted scalars without escapes, and one-line flow
 * mappings and sequences of those; comments and blank lines. For anything else (block
 * sequences, multi-line or empty values, anchors, tags, escapes, tabs, other characters, odd
 * indentation, every syntax error) it returns null and SnakeYAML composes the file. What it
 * accepts it composes as SnakeYAML would: the same nodes, tags, values and start positions
 * (PlainYamlTest compares the two on thousands of mutated machine files).
 */
final class PlainYaml {

  /** SnakeYAML's name for text read from a Reader, kept so marks look alike. */
  private static final String SOURCE = "'reader'";
  /** Deeper nesting goes to SnakeYAML, which enforces its nesting limit. */
  private static final int MAX_DEPTH = 20;
  /** Characters that a plain scalar cannot start with, or that this class leaves to SnakeYAML. */
  private static final String INDICATORS = "-?:,[]{}#&*!|>'\"%@`";
  /**
   * What a plain scalar inside a flow collection may hold besides letters, digits and '_':
   * SnakeYAML ends such a scalar at some characters ({@code ?} among them) that YAML 1.2 would
   * not, so only these few are taken.
   */
  private static final String FLOW_PLAIN = " -./+=$%()";

  /** Thrown to give the text to SnakeYAML; preallocated, as it is control flow, not an error. */
  private static final class Declined extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Declined() {
      super(null, null, false, false);
    }
  }

  private static final Declined DECLINED = new Declined();

  private final String text;
  private final Resolver resolver;
  private int pos;
  private int line;
  private int lineStart;
  private int depth;

  private PlainYaml(String text, Resolver resolver) {
    this.text = text;
    this.resolver = resolver;
  }

  /** The document's root node, or null when SnakeYAML must compose the text. */
  static Node compose(String text, Resolver resolver) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '\n' && (c < ' ' || c > '~')) {
        return null;
      }
    }
    try {
      return new PlainYaml(text, resolver).document();
    } catch (Declined e) {
      return null;
    }
  }

  private Node document() {
    if (!lineHasContent() && !nextContentLine() || pos != lineStart) {
      throw DECLINED;
    }
    return blockMapping(0);
  }

  /** A block mapping whose keys start at column {@code indent}; pos is at its first key. */
  private Node blockMapping(int indent) {
    enter();
    Mark start = mark();
    List<NodeTuple> tuples = new ArrayList<>();
    do {
      ScalarNode key = key();
      expect(':');
      int afterColon = pos;
      Node value;
      if (restIsEmpty()) {
        if (!nextContentLine() || column() <= indent) {
          // An empty value, or a block sequence at the key's column.
          throw DECLINED;
        }
        value = blockMapping(column());
      } else {
        if (pos == afterColon) {
          // `a:b` is one plain scalar, not a key and a value.
          throw DECLINED;
        }
        value = inlineValue();
        if (!restIsEmpty()) {
          throw DECLINED;
        }
        nextContentLine();
      }
      tuples.add(new NodeTuple(key, value));
      if (pos < text.length() && column() > indent) {
        // A continued scalar, or a line between this mapping's column and its parent's.
        throw DECLINED;
      }
    } while (pos < text.length() && column() == indent);
    depth--;
    return new MappingNode(Tag.MAP, true, tuples, start, mark(),
        DumperOptions.FlowStyle.BLOCK);
  }

  /** A value on the line of its key: a flow collection, a quoted or a plain scalar. */
  private Node inlineValue() {
    Node node = collectionOrQuoted();
    return node != null ? node : blockPlain();
  }

  /** A flow collection or a quoted scalar starting here, or null for anything else. */
  private Node collectionOrQuoted() {
    char c = peek();
    if (c == '{') {
      return flowMapping();
    }
    if (c == '[') {
      return flowSequence();
    }
    if (c == '"' || c == '\'') {
      return quoted(c);
    }
    return null;
  }

  /** A plain scalar that ends the line, before any comment. */
  private Node blockPlain() {
    int start = pos;
    Mark startMark = mark();
    if (INDICATORS.indexOf(peek()) >= 0) {
      throw DECLINED;
    }
    int end = start;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == '\n' || (c == '#' && text.charAt(pos - 1) == ' ')) {
        break;
      }
      if (c == ':' && (pos + 1 == text.length() || text.charAt(pos + 1) == ' '
          || text.charAt(pos + 1) == '\n')) {
        throw DECLINED;
      }
      if ("#,[]{}\"'".indexOf(c) >= 0) {
        throw DECLINED;
      }
      pos++;
      if (c != ' ') {
        end = pos;
      }
    }
    return scalar(text.substring(start, end), startMark, true);
  }

  /** A quoted scalar without escapes, on one line. */
  private Node quoted(char quote) {
    Mark startMark = mark();
    int start = ++pos;
    while (pos < text.length() && text.charAt(pos) != quote) {
      char c = text.charAt(pos);
      if (c == '\n' || c == '\\') {
        throw DECLINED;
      }
      pos++;
    }
    if (pos >= text.length() || (pos + 1 < text.length() && text.charAt(pos + 1) == quote)) {
      throw DECLINED;
    }
    String value = text.substring(start, pos++);
    return new ScalarNode(resolver.resolve(NodeId.scalar, value, false), true, value, startMark,
        mark(), quote == '"' ? DumperOptions.ScalarStyle.DOUBLE_QUOTED
            : DumperOptions.ScalarStyle.SINGLE_QUOTED);
  }

  private Node flowMapping() {
    enter();
    Mark start = mark();
    pos++;
    skipSpaces();
    List<NodeTuple> tuples = new ArrayList<>();
    if (peek() != '}') {
      while (true) {
        ScalarNode key = key();
        expect(':');
        expect(' ');
        skipSpaces();
        tuples.add(new NodeTuple(key, flowValue()));
        if (!endOfFlowItem('}')) {
          break;
        }
      }
    }
    expect('}');
    depth--;
    return new MappingNode(Tag.MAP, true, tuples, start, mark(), DumperOptions.FlowStyle.FLOW);
  }

  private Node flowSequence() {
    enter();
    Mark start = mark();
    pos++;
    skipSpaces();
    List<Node> items = new ArrayList<>();
    if (peek() != ']') {
      while (true) {
        items.add(flowValue());
        if (!endOfFlowItem(']')) {
          break;
        }
      }
    }
    expect(']');
    depth--;
    return new SequenceNode(Tag.SEQ, true, items, start, mark(), DumperOptions.FlowStyle.FLOW);
  }

  /** After a flow item: true past a comma with another item to come, false at {@code close}. */
  private boolean endOfFlowItem(char close) {
    skipSpaces();
    if (peek() == close) {
      return false;
    }
    expect(',');
    skipSpaces();
    // A trailing comma is valid YAML, but rare enough to leave to SnakeYAML.
    if (peek() == close) {
      throw DECLINED;
    }
    return true;
  }

  private Node flowValue() {
    Node node = collectionOrQuoted();
    if (node != null) {
      return node;
    }
    char c = peek();
    int start = pos;
    Mark startMark = mark();
    if (INDICATORS.indexOf(c) >= 0) {
      throw DECLINED;
    }
    int end = start;
    while (pos < text.length()) {
      char d = text.charAt(pos);
      if (d == ',' || d == '}' || d == ']') {
        break;
      }
      if (!isWordChar(d) && FLOW_PLAIN.indexOf(d) < 0) {
        throw DECLINED;
      }
      pos++;
      if (d != ' ') {
        end = pos;
      }
    }
    return scalar(text.substring(start, end), startMark, true);
  }

  /** A key: a word of letters, digits, '_', '-' and '.', not starting with '-' or '.'. */
  private ScalarNode key() {
    int start = pos;
    Mark startMark = mark();
    while (pos < text.length() && isKeyChar(text.charAt(pos))) {
      pos++;
    }
    if (pos == start || !isWordChar(text.charAt(start))) {
      throw DECLINED;
    }
    return scalar(text.substring(start, pos), startMark, true);
  }

  private ScalarNode scalar(String value, Mark start, boolean plain) {
    return new ScalarNode(resolver.resolve(NodeId.scalar, value, plain), true, value, start,
        mark(), DumperOptions.ScalarStyle.PLAIN);
  }

  /**
   * From a line whose rest holds nothing but spaces and a comment, moves to the first character
   * of the next line that holds more; false, at the end of the text, when there is none.
   */
  private boolean nextContentLine() {
    while (true) {
      int end = text.indexOf('\n', pos);
      if (end < 0) {
        pos = text.length();
        return false;
      }
      pos = end + 1;
      line++;
      lineStart = pos;
      if (lineHasContent()) {
        return true;
      }
    }
  }

  /** Skips the line's leading spaces; true when something other than a comment follows. */
  private boolean lineHasContent() {
    skipSpaces();
    return pos < text.length() && text.charAt(pos) != '\n' && text.charAt(pos) != '#';
  }

  /** True when only spaces and a comment are left on the line; leaves pos after the spaces. */
  private boolean restIsEmpty() {
    skipSpaces();
    // A comment needs a space before it.
    return pos >= text.length() || text.charAt(pos) == '\n'
        || (text.charAt(pos) == '#' && text.charAt(pos - 1) == ' ');
  }

  private void skipSpaces() {
    while (pos < text.length() && text.charAt(pos) == ' ') {
      pos++;
    }
  }

  private void expect(char c) {
    if (peek() != c) {
      throw DECLINED;
    }
    pos++;
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\n';
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw DECLINED;
    }
  }

  private int column() {
    return pos - lineStart;
  }

  private Mark mark() {
    return new Mark(SOURCE, pos, line, pos - lineStart, (int[]) null, pos);
  }

  private static boolean isKeyChar(char c) {
    return isWordChar(c) || c == '-' || c == '.';
  }

  private static boolean isWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
}
