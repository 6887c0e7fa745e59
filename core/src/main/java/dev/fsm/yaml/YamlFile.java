package dev.fsm.yaml;

import dev.fsm.diagnostic.Position;
import dev.fsm.diagnostic.Problems;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * Reads a machine file into a YAML node tree, refusing anything that is not small, plain YAML
 * data: oversized files, binary content, alias bombs, deep nesting and object-building tags.
 */
public final class YamlFile {

  /** Machine files larger than this are refused unread. */
  public static final int MAX_BYTES = 1 << 20;

  private static final String GLOBAL_TAG = "Global tag is not allowed:";
  private static final String TAG_HINT = "machine files hold plain data: remove the tag";

  private static final Set<Tag> PLAIN_TAGS =
      Set.of(Tag.STR, Tag.INT, Tag.FLOAT, Tag.BOOL, Tag.NULL, Tag.MAP, Tag.SEQ, Tag.MERGE,
          Tag.TIMESTAMP);

  private YamlFile() {}

  /** The file's YAML tree, or empty after recording why it cannot be read. */
  public static Optional<Node> compose(Path file, Problems problems) {
    Optional<String> text = readText(file, problems);
    return text.flatMap(t -> compose(t, problems));
  }

  /** The tree of YAML text, or empty after recording why it cannot be read. */
  public static Optional<Node> compose(String text, Problems problems) {
    // SnakeYAML's code point limit does not count comments, so the size is checked here too.
    if (text.length() > MAX_BYTES || text.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      problems.error(Position.START, "file is larger than 1 MiB; machine files are limited to"
          + " 1 MiB");
      return Optional.empty();
    }
    if (text.indexOf('\0') >= 0) {
      problems.error(Position.START, "file is binary, not YAML text",
          "a machine file is a YAML text file");
      return Optional.empty();
    }
    Node root;
    try {
      // The usual machine file's YAML is composed by PlainYaml, and anything else by
      // SnakeYAML's parser and composer only: the Yaml facade would also load a constructor and
      // a representer this never uses, which costs start-up time.
      PlainResolver resolver = new PlainResolver();
      root = PlainYaml.compose(text, resolver);
      if (root == null) {
        LoaderOptions options = options();
        root = new Composer(new ParserImpl(new StreamReader(new StringReader(text)), options),
            resolver, options).getSingleNode();
      }
    } catch (MarkedYAMLException e) {
      Position at = at(e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark());
      String problem = e.getProblem() == null ? "" : e.getProblem();
      SyntaxError syntax = problem.startsWith(GLOBAL_TAG) ? null : SyntaxError.of(e, text);
      if (problem.startsWith(GLOBAL_TAG)) {
        problems.error(at, tagMessage(problem.substring(GLOBAL_TAG.length()).strip()), TAG_HINT);
      } else if (syntax != null) {
        problems.error(syntax.at(), syntax.message(), syntax.hint());
      } else {
        problems.error(at, yamlMessage(e));
      }
      return Optional.empty();
    } catch (ReaderException e) {
      problems.error(firstUnprintable(text), String.format(Locale.ROOT,
          "file holds character U+%04X, which YAML does not allow", e.getCodePoint()),
          "a machine file is a YAML text file");
      return Optional.empty();
    } catch (RuntimeException | StackOverflowError e) {
      String line = firstLine(e.getMessage());
      String limit = limitMessage(line);
      problems.error(Position.START, limit != null ? limit : "not valid YAML: " + line);
      return Optional.empty();
    }
    if (root == null) {
      problems.error(Position.START, "file is empty",
          "a machine file is a mapping with `machine:` and `states:`");
      return Optional.empty();
    }
    checkTags(root, problems, Collections.newSetFromMap(new IdentityHashMap<>()));
    return problems.hasErrors() ? Optional.empty() : Optional.of(root);
  }

  /** The 1-based position of a node's start. */
  public static Position at(Node node) {
    return at(node.getStartMark());
  }

  static Position at(Mark mark) {
    return mark == null ? Position.START : new Position(mark.getLine() + 1, mark.getColumn() + 1);
  }

  private static LoaderOptions options() {
    LoaderOptions o = new LoaderOptions();
    o.setAllowDuplicateKeys(false);
    o.setMaxAliasesForCollections(20);
    o.setCodePointLimit(MAX_BYTES);
    o.setNestingDepthLimit(30);
    o.setAllowRecursiveKeys(false);
    return o;
  }

  private static Optional<String> readText(Path file, Problems problems) {
    byte[] bytes;
    try {
      if (Files.isDirectory(file)) {
        problems.error(Position.START, "is a folder, not a machine file");
        return Optional.empty();
      }
      long size = Files.size(file);
      if (size > MAX_BYTES) {
        problems.error(Position.START, "file is " + size + " bytes; machine files are limited to"
            + " 1 MiB (1048576 bytes)");
        return Optional.empty();
      }
      try (InputStream in = Files.newInputStream(file)) {
        bytes = in.readNBytes(MAX_BYTES + 1);
      }
    } catch (IOException e) {
      problems.error(Position.START, "cannot read file: " + describe(e));
      return Optional.empty();
    }
    if (bytes.length > MAX_BYTES) {
      problems.error(Position.START, "file is larger than 1 MiB; machine files are limited to 1 MiB");
      return Optional.empty();
    }
    // new String() takes the JDK's fast path; only when it had to substitute U+FFFD (invalid
    // bytes, or a real U+FFFD in the file) does the strict decoder decide.
    String text = new String(bytes, StandardCharsets.UTF_8);
    if (text.indexOf('\uFFFD') >= 0) {
      try {
        StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(bytes));
      } catch (CharacterCodingException e) {
        problems.error(Position.START, "file is not UTF-8 text",
            "a machine file is a YAML text file in UTF-8");
        return Optional.empty();
      }
    }
    return Optional.of(text.startsWith("\uFEFF") ? text.substring(1) : text);
  }

  private static void checkTags(Node node, Problems problems, Set<Node> seen) {
    // Only collections can be reached twice (through aliases) and so need remembering.
    if (!(node instanceof ScalarNode) && !seen.add(node)) {
      return;
    }
    Tag tag = node.getTag();
    if (!PLAIN_TAGS.contains(tag)) {
      problems.error(at(node), tagMessage(tag.getValue()), TAG_HINT);
      return;
    }
    if (node instanceof MappingNode mapping) {
      for (NodeTuple tuple : mapping.getValue()) {
        checkTags(tuple.getKeyNode(), problems, seen);
        checkTags(tuple.getValueNode(), problems, seen);
      }
    } else if (node instanceof SequenceNode sequence) {
      for (Node item : sequence.getValue()) {
        checkTags(item, problems, seen);
      }
    }
  }

  /** How a tag is refused; {@code !!x} reads better than {@code tag:yaml.org,2002:x}. */
  private static String tagMessage(String tag) {
    String shown = tag.startsWith(Tag.PREFIX) ? "!!" + tag.substring(Tag.PREFIX.length()) : tag;
    return "YAML tag `" + shown + "` is not allowed";
  }

  /** Where the first character YAML forbids is, counting lines as SnakeYAML's marks do. */
  private static Position firstUnprintable(String text) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < text.length(); i += Character.charCount(text.codePointAt(i))) {
      int c = text.codePointAt(i);
      if (!StreamReader.isPrintable(c)) {
        return new Position(line, column);
      }
      boolean crlf = c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n';
      if (c == '\n' || (c == '\r' && !crlf) || c == 0x85 || c == 0x2028 || c == 0x2029) {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return Position.START;
  }

  private static String yamlMessage(MarkedYAMLException e) {
    String problem = e.getProblem() == null ? "" : e.getProblem();
    String context = e.getContext() == null ? "" : e.getContext();
    String message = context.isEmpty() ? problem : context + ": " + problem;
    message = message.replace("\n", " ").replaceAll("\\s+", " ").strip();
    String limit = limitMessage(message);
    return limit != null ? limit : "invalid YAML: " + message;
  }

  /** SnakeYAML's words for a limit fsm sets, in fsm's words; null for any other problem. */
  private static String limitMessage(String raw) {
    if (raw.contains("aliases for non-scalar nodes")) {
      return "too many YAML aliases (more than 20); machine files cannot expand aliases that far";
    }
    if (raw.contains("Nesting Depth exceeded")) {
      return "YAML nested deeper than 30 levels; a machine file never needs that";
    }
    if (raw.contains("exceeds the limit")) {
      return "file is larger than 1 MiB; machine files are limited to 1 MiB";
    }
    return null;
  }

  private static String firstLine(String message) {
    if (message == null || message.isBlank()) {
      return "cannot parse";
    }
    return message.strip().lines().findFirst().orElse("cannot parse");
  }

  private static String describe(IOException e) {
    String name = e.getClass().getSimpleName();
    if (name.equals("NoSuchFileException")) {
      return "no such file";
    }
    if (name.equals("AccessDeniedException")) {
      return "permission denied";
    }
    return e.getMessage() == null ? name : e.getMessage();
  }
}
