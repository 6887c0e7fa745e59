package dev.fsm.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.fsm.diagnostic.Diagnostic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Mutates the example machines thousands of times (deleting, duplicating, swapping, retyping,
 * re-indenting and truncating lines, inserting random characters) and checks that the validator
 * always answers: no exception, errors or not, and every diagnostic a well-formed line.
 */
class MutationPropertyTest {

  /** Fixed so failures reproduce; {@code -Dfsm.mutation.seed=N} explores further. */
  private static final long SEED = Long.getLong("fsm.mutation.seed", 20_261_121L);
  private static final int MUTANTS_PER_EXAMPLE = Integer.getInteger("fsm.mutation.count", 1_500);

  private static final String[] RETYPED = {
      "[a, b]", "{x: 1}", "42", "-1", "3.14", "1.10", "~", "", "yes", "no", "on", "true", "null",
      "\"\"", "''", "[]", "{}", "- x", "*nowhere", "&anchor", "!!java.io.File /etc/passwd",
      "!local x", "\"unclosed", "'unclosed", "[unclosed", "{unclosed", "|", ">", "0", "0s", "p0",
      "p100", "1m30h", "builtin:", "builtin:nope", "builtin:sleep", "builtin:emit", "java:",
      "java:1x", "scripts/none.sh", "'a b' \"c", "x\\", "%", "@", "`", "#", ": :", "? x", "<<: 5",
      "ok: nowhere", "final: completed", "\t", "\u00e9\u00e8", "\u2028", "\u0085", "\u00a0",
      "\uFEFF", "\ud83d\ude00"};
  private static final String SPECIALS = ":-?[]{},#&*!|>'\"%@` \t\n\r\\~<=";

  private static Path root;
  private static List<Path> examples;

  @BeforeAll
  static void findExamples() throws IOException {
    root = repoRoot();
    try (Stream<Path> files = Files.list(root.resolve("machines"))) {
      examples = files.filter(p -> p.getFileName().toString().matches(".+\\.ya?ml")).sorted()
          .toList();
    }
    assertThat(examples).as("example machines in " + root.resolve("machines")).isNotEmpty();
  }

  /** The folder with {@code machines/} and {@code pom.xml}, wherever Maven runs the tests. */
  static Path repoRoot() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("machines")) && Files.isRegularFile(p.resolve("pom.xml"))) {
        return p;
      }
    }
    throw new IllegalStateException("no folder with machines/ and pom.xml above "
        + Path.of("").toAbsolutePath());
  }

  @Test
  void theExamplesAreValid() {
    for (Path example : examples) {
      FileReport report = Validator.check(example);
      assertThat(report.diagnostics()).as(example.toString()).noneMatch(Diagnostic::isError);
      assertThat(report.machine()).as(example.toString()).isPresent();
    }
    ValidationReport all = Validator.validate(List.of(root.resolve("machines")));
    assertThat(all.files()).hasSize(examples.size());
    assertThat(all.errorCount()).as(all.diagnostics().toString()).isZero();
  }

  @Test
  void mutantsAlwaysGetAnAnswer() throws IOException {
    Random random = new Random(SEED);
    int checked = 0;
    int withErrors = 0;
    for (Path example : examples) {
      String original = Files.readString(example);
      List<String> mutants = new ArrayList<>();
      for (int i = 0; i < MUTANTS_PER_EXAMPLE; i++) {
        String mutant = original;
        int rounds = 1 + random.nextInt(3);
        for (int r = 0; r < rounds; r++) {
          mutant = mutate(mutant, random);
        }
        mutants.add(mutant);
      }
      withErrors += assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
        int errors = 0;
        for (String mutant : mutants) {
          errors += checkMutant(example, mutant) ? 1 : 0;
        }
        return errors;
      });
      checked += mutants.size();
    }
    assertThat(checked).isGreaterThanOrEqualTo(3 * MUTANTS_PER_EXAMPLE);
    // The mutations must actually break things most of the time, or the test proves little.
    assertThat(withErrors).isGreaterThan(checked / 2).isLessThan(checked);
  }

  @Test
  void validatingIsDeterministic() throws IOException {
    Random random = new Random(SEED + 1);
    for (Path example : examples) {
      String original = Files.readString(example);
      for (int i = 0; i < 100; i++) {
        String mutant = mutate(original, random);
        assertThat(Validator.check(example, mutant).diagnostics())
            .isEqualTo(Validator.check(example, mutant).diagnostics());
      }
    }
  }

  /** Validates one mutant and checks the answer; true when it has errors. */
  private static boolean checkMutant(Path example, String mutant) {
    FileReport report;
    try {
      report = Validator.check(example, mutant);
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError("validator threw on this mutant of " + example + ":\n" + mutant, e);
    }
    int lines = yamlLines(mutant);
    for (Diagnostic d : report.diagnostics()) {
      String where = d.format() + "\n--- mutant of " + example + ":\n" + mutant;
      if (d.position().line() < 1 || d.position().column() < 1
          || d.position().line() > lines + 1) {
        fail("position outside the file (" + lines + " lines): " + where);
      }
      if (d.severity() == null || d.message() == null || d.message().isBlank()
          || d.file() == null || !d.file().equals(example)) {
        fail("incomplete diagnostic: " + where);
      }
      if (d.format().lines().count() != 1 || d.format().contains("\r")
          || d.format().contains("\u2028") || d.format().contains("\u0085")) {
        fail("diagnostic is not one line: " + where);
      }
      if (d.hint() != null && d.hint().isBlank()) {
        fail("blank hint: " + where);
      }
    }
    assertThat(report.hasErrors()).isEqualTo(report.diagnostics().stream()
        .anyMatch(Diagnostic::isError));
    assertThat(report.machine().isPresent()).isEqualTo(!report.hasErrors());
    return report.hasErrors();
  }

  /** Lines as YAML counts them: NEL and the Unicode line and paragraph separators break too. */
  static int yamlLines(String text) {
    int lines = 1;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean crlf = c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n';
      if (c == '\n' || (c == '\r' && !crlf) || c == '\u0085' || c == '\u2028'
          || c == '\u2029') {
        lines++;
      }
    }
    return lines;
  }

  private static String mutate(String text, Random random) {
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    int at = random.nextInt(lines.size());
    switch (random.nextInt(10)) {
      case 0 -> lines.remove(at);
      case 1 -> lines.add(at, lines.get(at));
      case 2 -> {
        int other = random.nextInt(lines.size());
        String swapped = lines.get(at);
        lines.set(at, lines.get(other));
        lines.set(other, swapped);
      }
      case 3, 4 -> lines.set(at, retype(lines.get(at), random));
      case 5 -> {
        return text.substring(0, random.nextInt(text.length() + 1));
      }
      case 6 -> {
        int pos = random.nextInt(text.length() + 1);
        return text.substring(0, pos) + randomText(random) + text.substring(pos);
      }
      case 7 -> lines.set(at, random.nextBoolean() ? "  " + lines.get(at)
          : random.nextBoolean() ? " " + lines.get(at) : lines.get(at).replaceFirst("^ {1,2}", ""));
      case 8 -> lines.set(at, typo(lines.get(at), random));
      default -> {
        if (at + 1 < lines.size()) {
          lines.set(at, lines.get(at) + lines.remove(at + 1));
        }
      }
    }
    return String.join("\n", lines);
  }

  /** Replaces a line's value (after the first {@code ": "}) with a value of another type. */
  private static String retype(String line, Random random) {
    String value = RETYPED[random.nextInt(RETYPED.length)];
    int colon = line.indexOf(": ");
    if (colon < 0) {
      int dash = line.indexOf("- ");
      return dash >= 0 ? line.substring(0, dash + 2) + value : line + value;
    }
    if (random.nextInt(4) == 0) {
      // Retype the value into a block: a nested list or mapping on the next lines.
      String indent = " ".repeat(line.length() - line.stripLeading().length() + 2);
      String block = random.nextBoolean() ? indent + "- x\n" + indent + "- y" : indent + "k: v";
      return line.substring(0, colon + 1) + "\n" + block;
    }
    return line.substring(0, colon + 2) + value;
  }

  /** Swaps, drops or doubles one character of a line, the way fingers do. */
  private static String typo(String line, Random random) {
    if (line.length() < 2) {
      return line + "x";
    }
    int i = random.nextInt(line.length() - 1);
    return switch (random.nextInt(3)) {
      case 0 -> line.substring(0, i) + line.charAt(i + 1) + line.charAt(i) + line.substring(i + 2);
      case 1 -> line.substring(0, i) + line.substring(i + 1);
      default -> line.substring(0, i) + line.charAt(i) + line.substring(i);
    };
  }

  /** A few random characters: YAML indicators, controls, or any code point at all. */
  private static String randomText(Random random) {
    StringBuilder out = new StringBuilder();
    int n = 1 + random.nextInt(8);
    for (int i = 0; i < n; i++) {
      switch (random.nextInt(3)) {
        case 0 -> out.append(SPECIALS.charAt(random.nextInt(SPECIALS.length())));
        case 1 -> out.append((char) random.nextInt(0x100));
        default -> out.appendCodePoint(random.nextInt(Character.MAX_CODE_POINT + 1));
      }
    }
    return out.toString();
  }
}
