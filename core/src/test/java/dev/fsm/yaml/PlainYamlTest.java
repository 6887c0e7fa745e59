package dev.fsm.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * PlainYaml must compose what it accepts exactly as SnakeYAML does, since every diagnostic of
 * {@code fsm validate} is read off the tree: the same nodes, tags, values and start positions.
 * Checked on the example machines and on thousands of mutants of them, most of which it must
 * leave to SnakeYAML.
 */
class PlainYamlTest {

  /** Fixed so failures reproduce; {@code -Dfsm.mutation.seed=N} explores further. */
  private static final long SEED = Long.getLong("fsm.mutation.seed", 20_261_128L);
  private static final int MUTANTS_PER_EXAMPLE = Integer.getInteger("fsm.mutation.count", 3_000);
  private static final String SPECIALS = ":-?[]{},#&*!|>'\"%@` \t\n\r\\~<=.";
  private static final String[] VALUES = {
      "[a, b]", "{x: 1}", "{x: {y: [1, 2]}}", "[]", "{}", "[a,]", "{a: 1,}", "42", "-1", "~",
      "null", "Null", "NULL", "", "yes", "\"\"", "''", "'it''s'", "\"a\\tb\"", "\"a b\"", "'a b'",
      "\"unclosed", "- x", "*alias", "&anchor x", "!!str x", "|", ">", "a: b", "a:b", "a #b",
      "a#b", "a,b", "a]b", "http://x", "builtin:sleep 1s", "p95", "<<", "x  y", "x   "};

  private static List<String> examples;

  @BeforeAll
  static void readExamples() throws IOException {
    Path root = repoRoot();
    examples = new ArrayList<>();
    examples.add(Files.readString(
        root.resolve("cli/src/main/resources/dev/fsm/cli/training/fifty.yaml")));
    try (var files = Files.newDirectoryStream(root.resolve("machines"), "*.yaml")) {
      for (Path file : files) {
        examples.add(Files.readString(file));
      }
    }
    assertThat(examples).hasSizeGreaterThan(1);
  }

  @Test
  void composesTheMachineOfTheStartUpBenchAsSnakeYamlDoes() {
    String fifty = examples.get(0);
    Node plain = PlainYaml.compose(fifty, new PlainResolver());
    assertThat(plain).as("the bench's machine is plain YAML").isNotNull();
    assertThat(tree(plain)).isEqualTo(tree(snakeYaml(fifty)));
  }

  @Test
  void composesEveryMutantItAcceptsAsSnakeYamlDoes() {
    Random random = new Random(SEED);
    int accepted = 0;
    int total = 0;
    for (String example : examples) {
      for (int i = 0; i < MUTANTS_PER_EXAMPLE; i++) {
        String mutant = mutate(example, random);
        total++;
        Node plain = PlainYaml.compose(mutant, new PlainResolver());
        if (plain == null) {
          continue;
        }
        accepted++;
        Node snake;
        try {
          snake = snakeYaml(mutant);
        } catch (RuntimeException e) {
          throw new AssertionError("PlainYaml accepted what SnakeYAML refuses (" + e
              + "):\n" + mutant);
        }
        if (snake == null) {
          fail("PlainYaml composed a document SnakeYAML finds empty:\n" + mutant);
        }
        assertThat(tree(plain)).as(mutant).isEqualTo(tree(snake));
      }
    }
    // Both ways must be exercised: mutants it composes and mutants it leaves to SnakeYAML.
    assertThat(accepted).as("mutants accepted of " + total).isBetween(total / 10, total * 9 / 10);
  }

  @Test
  void leavesEverythingElseToSnakeYaml() {
    String[] others = {
      "", "# only a comment\n", "  a: 1\n", "a:\n  - x\n", "a:\n  b\n", "a: b\n  c\n", "a:\n",
      "a: 1\nb:\n", "a:\tb\n", "a: \u00e9\n", "a: b\r\n", "a: &x b\n", "a: *x\n", "a: !!str b\n",
      "a: \"b\\n\"\n", "a: 'b''c'\n", "a: [b,]\n", "a: {b: 1,}\n", "a:b\n", "\"a\": b\n",
      "---\na: b\n", "a: b: c\n", "a: b:\n", "a: |\n  x\n", "a: {b: c:d}\n", "a: [b\n", "a: b\n  c: d\n",
      "a:\n    b: 1\n  c: 2\n", "- a\n", "a: b #c\n d: e\n", "a: {b: 1}#c\n", "<<: {a: 1}\n",
    };
    for (String text : others) {
      assertThat(PlainYaml.compose(text, new PlainResolver())).as(text).isNull();
    }
  }

  private static Node snakeYaml(String text) {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    options.setMaxAliasesForCollections(20);
    options.setCodePointLimit(YamlFile.MAX_BYTES);
    options.setNestingDepthLimit(30);
    options.setAllowRecursiveKeys(false);
    return new Composer(new ParserImpl(new StreamReader(new StringReader(text)), options),
        new PlainResolver(), options).getSingleNode();
  }

  /** The tree as text: each node's kind, tag, start line and column, and value. */
  private static String tree(Node node) {
    String head = node.getTag().getValue() + "@" + node.getStartMark().getLine() + ":"
        + node.getStartMark().getColumn();
    if (node instanceof ScalarNode scalar) {
      return "S(" + head + " " + scalar.getValue() + ")";
    }
    StringBuilder out = new StringBuilder();
    if (node instanceof MappingNode mapping) {
      out.append("M(").append(head).append("){");
      for (NodeTuple tuple : mapping.getValue()) {
        out.append(tree(tuple.getKeyNode())).append('=').append(tree(tuple.getValueNode()))
            .append(", ");
      }
      return out.append('}').toString();
    }
    out.append("Q(").append(head).append(")[");
    for (Node item : ((SequenceNode) node).getValue()) {
      out.append(tree(item)).append(", ");
    }
    return out.append(']').toString();
  }

  private static String mutate(String text, Random random) {
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    int at = random.nextInt(lines.size());
    String line = lines.get(at);
    switch (random.nextInt(8)) {
      case 0 -> lines.remove(at);
      case 1 -> lines.add(at, line);
      case 2 -> {
        int colon = line.indexOf(": ");
        String value = VALUES[random.nextInt(VALUES.length)];
        lines.set(at, colon < 0 ? line + value : line.substring(0, colon + 2) + value);
      }
      case 3 -> {
        int pos = random.nextInt(line.length() + 1);
        lines.set(at, line.substring(0, pos) + SPECIALS.charAt(random.nextInt(SPECIALS.length()))
            + line.substring(pos));
      }
      case 4 -> lines.set(at, random.nextBoolean() ? " " + line : line.replaceFirst("^ ", ""));
      case 5 -> {
        if (!line.isEmpty()) {
          int pos = random.nextInt(line.length());
          lines.set(at, line.substring(0, pos) + line.substring(pos + 1));
        }
      }
      case 6 -> {
        return text.substring(0, random.nextInt(text.length() + 1));
      }
      default -> lines.set(at, line + (random.nextBoolean() ? "   " : "  # note: a, [b]"));
    }
    return String.join("\n", lines);
  }

  /** The folder with {@code machines/} and {@code pom.xml}, wherever Maven runs the tests. */
  private static Path repoRoot() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("machines")) && Files.isRegularFile(p.resolve("pom.xml"))) {
        return p;
      }
    }
    throw new IllegalStateException("no folder with machines/ and pom.xml above "
        + Path.of("").toAbsolutePath());
  }
}
