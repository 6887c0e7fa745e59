package dev.fsm.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.fsm.diagnostic.Diagnostic;
import dev.fsm.diagnostic.Position;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written to hurt: each must give a clear error (one, where one says it all), never an
 * exception, and never hang. The timeout is a hang guard, not a benchmark.
 */
class HostileInputTest {

  /**
   * Far above a healthy parse (under 100 ms once warm) and far below a runaway one (a quadratic
   * hint search once took over 60 s): 2 s was hit by a 1 MiB file on a cold JVM while the
   * machine's other core was busy.
   */
  private static final Duration HANG_GUARD = Duration.ofSeconds(15);
  private static final int MIB = 1 << 20;

  @TempDir
  Path dir;

  /** Writes the bytes to a file and validates it the way `fsm validate FILE` does. */
  private FileReport checkBytes(byte[] content) throws IOException {
    Path file = Files.write(dir.resolve("hostile.yaml"), content);
    FileReport report = assertTimeoutPreemptively(HANG_GUARD, () -> Validator.check(file));
    assertWellFormed(report);
    assertThat(report.hasErrors()).as("a hostile file is an error").isTrue();
    assertThat(report.machine()).isEmpty();
    return report;
  }

  private FileReport check(String content) throws IOException {
    return checkBytes(content.getBytes(StandardCharsets.UTF_8));
  }

  /** The one error a file gets. */
  private Diagnostic onlyError(FileReport report) {
    List<Diagnostic> errors = report.diagnostics().stream().filter(Diagnostic::isError).toList();
    assertThat(errors).as(report.diagnostics().toString()).hasSize(1);
    return errors.get(0);
  }

  static void assertWellFormed(FileReport report) {
    for (Diagnostic d : report.diagnostics()) {
      assertThat(d.position().line()).isGreaterThanOrEqualTo(1);
      assertThat(d.position().column()).isGreaterThanOrEqualTo(1);
      assertThat(d.severity()).isNotNull();
      assertThat(d.message()).isNotBlank().doesNotContain("\n", "\r", "\u2028", "\u0000");
      assertThat(d.format()).doesNotContain("\n", "\r").hasSizeLessThan(1200)
          .doesNotContain("Exception", "\tat ");
    }
  }

  @Test
  void fileOverOneMebibyte() throws IOException {
    String body = "machine: big\nstates:\n  s: {final: completed}\n";
    byte[] content = (body + "#".repeat(MIB) + "\n").getBytes(StandardCharsets.UTF_8);
    Diagnostic d = onlyError(checkBytes(content));
    assertThat(d.position()).isEqualTo(Position.START);
    assertThat(d.message()).isEqualTo("file is " + content.length
        + " bytes; machine files are limited to 1 MiB (1048576 bytes)");
  }

  @Test
  void textOverOneMebibyteIsRefusedToo() {
    String text = "machine: big\nstates:\n  s: {final: completed}\n# " + "x".repeat(MIB) + "\n";
    FileReport report = assertTimeoutPreemptively(HANG_GUARD,
        () -> Validator.check(dir.resolve("big.yaml"), text));
    assertThat(onlyError(report).message())
        .isEqualTo("file is larger than 1 MiB; machine files are limited to 1 MiB");
    String multiByte = "machine: big\nstates:\n  s: {final: completed}\n# " + "é".repeat(MIB / 2 + 10);
    assertThat(onlyError(Validator.check(dir.resolve("big.yaml"), multiByte)).message())
        .contains("larger than 1 MiB");
  }

  @Test
  void fileJustUnderOneMebibyteIsRead() throws IOException {
    String body = "machine: big\nstates:\n  s: {final: completed}\n";
    String padded = body + "#".repeat(MIB - body.length() - 1) + "\n";
    Path file = Files.writeString(dir.resolve("big.yaml"), padded);
    assertThat(Files.size(file)).isEqualTo(MIB);
    FileReport report = assertTimeoutPreemptively(HANG_GUARD, () -> Validator.check(file));
    assertThat(report.diagnostics()).isEmpty();
  }

  @Test
  void billionLaughsAliasBomb() throws IOException {
    StringBuilder yaml = new StringBuilder("machine: bomb\nstates:\n  s: {final: completed}\n");
    yaml.append("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (int i = 1; i <= 12; i++) {
      String prev = "*a" + (i - 1);
      yaml.append("a").append(i).append(": &a").append(i).append(" [")
          .append(String.join(", ", java.util.Collections.nCopies(9, prev))).append("]\n");
    }
    assertThat(onlyError(check(yaml.toString())).message()).contains("too many YAML aliases");
  }

  @Test
  void aliasesOfScalarsAreHarmless() throws IOException {
    StringBuilder yaml = new StringBuilder("machine: a\nstates:\n  s: {final: completed}\n"
        + "description: &d hello\n");
    for (int i = 0; i < 2000; i++) {
      yaml.append("k").append(i).append(": *d\n");
    }
    FileReport report = check(yaml.toString());
    assertThat(report.diagnostics()).hasSize(2000).allMatch(d -> d.message()
        .startsWith("unknown key `k"));
  }

  @Test
  void deepFlowNesting() throws IOException {
    String yaml = "machine: a\nstates:\n  s: " + "[".repeat(10_000) + "]".repeat(10_000) + "\n";
    assertThat(onlyError(check(yaml)).message()).contains("nested deeper than 30 levels");
  }

  @Test
  void deepBlockNesting() throws IOException {
    StringBuilder yaml = new StringBuilder("machine: a\nstates:\n");
    for (int i = 1; i <= 500; i++) {
      yaml.append("  ".repeat(i)).append("k").append(i).append(":\n");
    }
    assertThat(onlyError(check(yaml.toString())).message()).contains("nested deeper than 30");
  }

  @Test
  void binaryGarbage() throws IOException {
    Random random = new Random(42);
    for (int round = 0; round < 20; round++) {
      byte[] bytes = new byte[1 + random.nextInt(64 * 1024)];
      random.nextBytes(bytes);
      Diagnostic d = onlyError(checkBytes(bytes));
      assertThat(d.message()).isIn("file is not UTF-8 text", "file is binary, not YAML text");
    }
  }

  @Test
  void nulBytesInUtf8() throws IOException {
    Diagnostic d = onlyError(checkBytes("machine: a\0\nstates: {}\n".getBytes(
        StandardCharsets.UTF_8)));
    assertThat(d.format()).endsWith(
        "hostile.yaml:1:1: error: file is binary, not YAML text (a machine file is a YAML text"
            + " file)");
  }

  @Test
  void utf16IsNotUtf8() throws IOException {
    byte[] utf16 = "machine: a\nstates: {s: {final: completed}}\n"
        .getBytes(StandardCharsets.UTF_16);
    assertThat(onlyError(checkBytes(utf16)).message()).isEqualTo("file is not UTF-8 text");
  }

  @Test
  void controlCharactersArePointedAt() throws IOException {
    Diagnostic d = onlyError(check("machine: a\nstates:\n  s: {fi\u0007nal: completed}\n"));
    assertThat(d.position()).isEqualTo(new Position(3, 9));
    assertThat(d.message()).isEqualTo("file holds character U+0007, which YAML does not allow");
  }

  @Test
  void aUtf8ByteOrderMarkIsFine() throws IOException {
    Path file = Files.writeString(dir.resolve("bom.yaml"),
        "\uFEFFmachine: a\nstates: {s: {final: completed}}\n");
    assertThat(Validator.check(file).diagnostics()).isEmpty();
  }

  @Test
  void emptyFile() throws IOException {
    Diagnostic d = onlyError(check(""));
    assertThat(d.format()).endsWith("hostile.yaml:1:1: error: file is empty (a machine file is a"
        + " mapping with `machine:` and `states:`)");
  }

  @Test
  void blankAndCommentOnlyFiles() throws IOException {
    assertThat(onlyError(check("  \n\n   \n")).message()).isEqualTo("file is empty");
    assertThat(onlyError(check("# nothing here\n# at all\n")).message())
        .isEqualTo("file is empty");
    assertThat(onlyError(check("---\n...\n")).message()).startsWith(
        "a machine file must be a mapping with `machine:` and `states:`, found nothing");
  }

  @Test
  void scriptEngineManagerTag() throws IOException {
    Diagnostic d = onlyError(check("""
        machine: a
        states:
          s: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL ["http://example.com/"]]]]
        """));
    assertThat(d.format()).endsWith("hostile.yaml:3:6: error: YAML tag"
        + " `!!javax.script.ScriptEngineManager` is not allowed (machine files hold plain data:"
        + " remove the tag)");
  }

  @Test
  void fileTag() throws IOException {
    Diagnostic d = onlyError(check("machine: a\nstates: !!java.io.File \"/etc/passwd\"\n"));
    assertThat(d.format()).endsWith("hostile.yaml:2:9: error: YAML tag `!!java.io.File` is not"
        + " allowed (machine files hold plain data: remove the tag)");
  }

  @Test
  void otherObjectBuildingTags() throws IOException {
    for (String tagged : List.of(
        "!!java.io.File /etc/passwd",
        "!<tag:yaml.org,2002:java.lang.ProcessBuilder> [rm]",
        "!!python/object/apply:os.system [ls]",
        "!ruby/object:Gem::Installer x",
        "!local x",
        "!!binary aGVsbG8=",
        "!!set {a, b}",
        "!!omap [a: 1]")) {
      FileReport report = check("machine: a\nstates: {s: {final: completed}}\ndescription: "
          + tagged + "\n");
      Diagnostic d = onlyError(report);
      assertThat(d.message()).as(tagged).startsWith("YAML tag `").endsWith("` is not allowed");
      assertThat(d.position()).as(tagged).isEqualTo(new Position(3, 14));
    }
  }

  @Test
  void tagOnTheWholeDocumentAndTagDirectives() throws IOException {
    assertThat(onlyError(check("!!java.io.File \"/etc/passwd\"\n")).message())
        .isEqualTo("YAML tag `!!java.io.File` is not allowed");
    assertThat(onlyError(check("%TAG !e! tag:example.com,2000:\n---\nmachine: !e!thing a\n"
        + "states: {s: {final: completed}}\n")).message())
        .isEqualTo("YAML tag `tag:example.com,2000:thing` is not allowed");
  }

  @Test
  void plainTagsThatBuildNothingAreAllowed() throws IOException {
    Path file = Files.writeString(dir.resolve("m.yaml"),
        "machine: !!str a\nstates: !!map {s: {final: !!str completed}}\n");
    assertThat(Validator.check(file).diagnostics()).isEmpty();
  }

  @Test
  void aListWhereAMappingBelongs() throws IOException {
    Diagnostic d = onlyError(check("- machine: a\n- states: {s: {final: completed}}\n"));
    assertThat(d.format()).endsWith("hostile.yaml:1:1: error: a machine file must be a mapping"
        + " with `machine:` and `states:`, found a list");
  }

  @Test
  void aScalarWhereTheMachineBelongs() throws IOException {
    assertThat(onlyError(check("just some text\n")).message()).isEqualTo("a machine file must"
        + " be a mapping with `machine:` and `states:`, found `just some text`");
  }

  @Test
  void severalDocuments() throws IOException {
    assertThat(onlyError(check("machine: a\nstates: {s: {final: completed}}\n---\nmachine: b\n"))
        .format()).endsWith("hostile.yaml:3:1: error: invalid YAML: expected a single document"
        + " in the stream: but found another document");
  }

  @Test
  void tabsForIndentation() throws IOException {
    assertThat(onlyError(check("machine: a\nstates:\n\ts: {final: completed}\n")).format())
        .endsWith("hostile.yaml:3:1: error: a tab in the indentation; YAML indents with spaces"
            + " only (replace the tab with spaces)");
  }

  @Test
  void recursiveAliases() throws IOException {
    FileReport report = check("machine: a\nstates: &s\n  s: *s\n");
    assertThat(report.diagnostics()).map(Diagnostic::message)
        .contains("unknown key `s` in state `s`");
    check("machine: a\nstates:\n  s: &b\n    <<: *b\n    on: {ok: t}\n");
  }

  @Test
  void mergeKeysThatAreNotMappings() throws IOException {
    assertThat(onlyError(check("machine: a\nstates:\n  s:\n    <<: 5\n    final: completed\n"))
        .format()).endsWith("hostile.yaml:4:9: error: a merge key (`<<`) takes a mapping, found"
        + " `5`");
  }

  @Test
  void complexKeys() throws IOException {
    assertThat(onlyError(check("machine: a\nstates:\n  ? [a, b]\n  : {final: completed}\n"))
        .format()).endsWith("hostile.yaml:3:5: error: keys in `states` must be plain names,"
        + " found a list");
    assertThat(onlyError(check("? {machine: a}\n: x\nmachine: a\nstates: {s: {final: completed}}\n"))
        .message()).isEqualTo("keys at the top level must be plain names, found a mapping");
  }

  @Test
  void hugeValuesAreShortenedInMessages() throws IOException {
    Diagnostic d = onlyError(check("machine: " + "a".repeat(200_000)
        + "\nstates: {s: {final: completed}}\n"));
    assertThat(d.message()).startsWith("machine name `aaaa").contains("...` is not allowed")
        .hasSizeLessThan(120);
    d = onlyError(check("machine: a\nstates: {s: {wait: " + "1s".repeat(50_000)
        + ", on: {ok: e}}, e: {final: completed}}\n"));
    assertThat(d.message()).contains("bad duration").hasSizeLessThan(300);
  }

  @Test
  void lineBreaksInNamesAreEscaped() throws IOException {
    FileReport report = check("""
        machine: a
        "evil\\nkey": 1
        states:
          "s\\u2028x": {final: completed}
          t: {run: "builtin:emit \\"a\\rb\\"", on: {ok: "x\\ny"}}
        """);
    assertThat(report.diagnostics()).map(Diagnostic::message).contains(
        "unknown key `evil\\nkey` at the top level",
        "state name `s\\u2028x` is not a plain name");
  }

  @Test
  void loneSurrogatesDoNotBreakAnything() throws IOException {
    check("machine: \"\\ud800\"\nstates: {s: {final: completed}}\n");
  }

  @Test
  void manyStatesWithUnknownTargets() throws IOException {
    StringBuilder yaml = new StringBuilder("machine: a\nstates:\n");
    int n = 10_000;
    for (int i = 0; i < n; i++) {
      yaml.append("  s").append(i).append(": {on: {ok: x").append(i).append("}}\n");
    }
    FileReport report = check(yaml.toString());
    assertThat(report.diagnostics().stream().filter(Diagnostic::isError)).hasSize(n);
    List<Diagnostic> errors = report.diagnostics().stream().filter(Diagnostic::isError).toList();
    assertThat(errors.get(0).hint()).isEqualTo("did you mean `s0`?");
    assertThat(errors).last().extracting(Diagnostic::hint)
        .isEqualTo("states: s0, s1, s2, s3, s4, s5, s6, s7, s8, s9 and " + (n - 10) + " more");
  }

  @Test
  void manyStatesWithNoWayOut() throws IOException {
    StringBuilder yaml = new StringBuilder("machine: a\nstates:\n");
    for (int i = 0; i < 20_000; i++) {
      yaml.append("  s").append(i).append(": {}\n");
    }
    FileReport report = check(yaml.toString());
    assertThat(report.diagnostics()).filteredOn(d -> d.message().contains("no way out"))
        .hasSize(20_000);
  }

  @Test
  void aLongChainOfStatesIsValid() throws IOException {
    StringBuilder yaml = new StringBuilder("machine: a\nstates:\n");
    int n = 10_000;
    for (int i = 0; i < n; i++) {
      yaml.append("  s").append(i).append(": {run: builtin:noop, on: {ok: s").append(i + 1)
          .append("}}\n");
    }
    yaml.append("  s").append(n).append(": {final: completed}\n");
    Path file = Files.writeString(dir.resolve("chain.yaml"), yaml);
    FileReport report = assertTimeoutPreemptively(HANG_GUARD, () -> Validator.check(file));
    assertThat(report.diagnostics()).isEmpty();
    assertThat(report.machine()).get().extracting(m -> m.states().size()).isEqualTo(n + 1);
  }

  @Test
  void aFolderOfHostileFilesIsOneReport() throws IOException {
    Files.writeString(dir.resolve("a.yaml"), "");
    Files.write(dir.resolve("b.yaml"), new byte[] {(byte) 0xff, 0, 1, 2});
    Files.writeString(dir.resolve("c.yml"), "machine: a\nstates: !!java.io.File x\n");
    Files.writeString(dir.resolve("d.yaml"), "machine: d\nstates: {s: {final: completed}}\n");
    ValidationReport report = assertTimeoutPreemptively(HANG_GUARD,
        () -> Validator.validate(List.of(dir)));
    assertThat(report.files()).hasSize(4);
    assertThat(report.errorCount()).isEqualTo(3);
    report.files().forEach(HostileInputTest::assertWellFormed);
  }
}
