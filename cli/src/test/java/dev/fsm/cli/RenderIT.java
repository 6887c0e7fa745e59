package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/** {@code fsm render} on the real jar: every format, both engines, overlays and mistakes. */
class RenderIT {

  /** PATH without any Graphviz, so the built-in engine is what auto picks. */
  private static final Map<String, String> NO_DOT = Map.of("PATH", "/usr/bin:/bin");

  @TempDir Path dir;

  @BeforeEach
  void machines() throws IOException {
    Path machines = Files.createDirectories(dir.resolve("machines"));
    // work loops twice through a wait state, then waits for a signal in review.
    Files.writeString(machines.resolve("loop.yaml"), """
        machine: loop
        states:
          work:
            run: ./count.sh
            on: {again: pause_a_bit, done: review, error: broken}
          pause_a_bit:
            wait: 10ms
            on: {ok: work}
          review:
            on: {approve: finished, reject: broken}
          finished: {final: completed}
          broken: {final: failed}
        """);
    Path script = machines.resolve("count.sh");
    Files.writeString(script, """
        #!/bin/sh
        n=$(cat | sed -n 's/.*"n" *: *\\([0-9]*\\).*/\\1/p')
        n=${n:-0}
        if [ "$n" -lt 2 ]; then
          echo "{\\"event\\": \\"again\\", \\"context\\": {\\"n\\": $((n + 1))}}"
        else
          echo '{"event": "done"}'
        fi
        """);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void everyExampleMachineRendersAsWellFormedSvgNamingEveryStateAndEvent() throws Exception {
    for (String name : List.of("order", "crawl", "backup")) {
      FsmJar.Result r = FsmJar.run(dir, NO_DOT, "render", "--machines",
          FsmJar.repo().resolve("machines").toString(), name, "--format", "svg");
      assertThat(r.exit()).as(r.err()).isZero();
      String text = svgText(r.out());
      Path file = FsmJar.repo().resolve("machines/" + name + ".yaml");
      for (String word : namesIn(file)) {
        assertThat(text).as("%s in the SVG of %s", word, name).contains(word);
      }
    }
  }

  @Test
  void writesPngWithoutGraphviz() throws IOException {
    FsmJar.Result r = FsmJar.run(dir, NO_DOT, "render", "loop", "-o", "loop.png");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).isEqualTo("wrote loop.png (png, 5 states)\n");
    byte[] png = Files.readAllBytes(dir.resolve("loop.png"));
    assertThat(png).startsWith(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
    ByteBuffer header = ByteBuffer.wrap(png, 16, 8);
    assertThat(header.getInt()).as("width").isBetween(300, 4000);
    assertThat(header.getInt()).as("height").isBetween(60, 4000);
  }

  @Test
  void printsDotWithoutOutputFileAndTakesTheFormatFromTheExtension() throws IOException {
    FsmJar.Result r = FsmJar.run(dir, "render", "machines/loop.yaml", "--direction", "TB");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("digraph \"loop\" {").contains("rankdir=TB");
    assertThat(FsmJar.run(dir, "render", "loop", "-o", "loop.gv").exit()).isZero();
    assertThat(Files.readString(dir.resolve("loop.gv"))).startsWith("digraph");
    assertThat(FsmJar.run(dir, NO_DOT, "render", "loop", "-o", "loop.svg").exit()).isZero();
    assertThat(Files.readString(dir.resolve("loop.svg"))).startsWith("<?xml").contains("<svg");
  }

  @Test
  void usesNativeDotFromPathForSvgAndPng() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path fake = bin.resolve("dot");
    // A stand-in for Graphviz: records its arguments and input, answers a fixed document.
    Files.writeString(fake, "#!/bin/sh\necho \"$@\" > \"" + dir.resolve("dot.args") + "\"\n"
        + "cat > \"" + dir.resolve("dot.in") + "\"\necho '<svg>from dot</svg>'\n");
    Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
    FsmJar.Result r = FsmJar.run(dir, Map.of("PATH", bin + ":/usr/bin:/bin"), "-v", "render",
        "loop", "-o", "loop.svg");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).contains("laying out with " + fake);
    assertThat(Files.readString(dir.resolve("loop.svg"))).isEqualTo("<svg>from dot</svg>\n");
    assertThat(Files.readString(dir.resolve("dot.args")).strip()).isEqualTo("-Tsvg");
    assertThat(Files.readString(dir.resolve("dot.in"))).startsWith("digraph \"loop\"");

    FsmJar.Result java = FsmJar.run(dir, Map.of("PATH", bin + ":/usr/bin:/bin"), "render",
        "loop", "--format", "svg", "--engine", "java");
    assertThat(java.out()).contains("<svg xmlns=").doesNotContain("from dot");
  }

  @Test
  void overlaysATaskPathAndTaskCountsFromTheStore() throws Exception {
    String first = ok("start", "loop").out().strip();
    ok("start", "loop", "--id", "second");
    ok("run", "--until-idle");

    String dot = ok("render", "loop", "--task", first.substring(0, first.length() - 2)).out();
    assertThat(dot).contains("label=\"loop: task " + first + " (waiting in review)\"")
        .contains("label=\"again ×2\"").contains("label=\"ok ×2\"").contains("label=\"done\"")
        .contains(": waiting</B>");
    assertThat(line(dot, "s2 [")).contains("penwidth=3.4");

    String counts = ok("render", "loop", "--counts").out();
    assertThat(counts).contains("label=\"loop: 2 tasks by state\"");
    assertThat(line(counts, "s2 [")).contains("<B>2 waiting</B>");
    assertThat(line(counts, "s0 [")).contains("fillcolor=\"#ffffff\"");

    FsmJar.Result svg = FsmJar.run(dir, NO_DOT, "render", "loop", "--task", "second",
        "--store", "store", "-o", "second.svg");
    assertThat(svg.exit()).as(svg.err()).isZero();
    assertThat(svgText(Files.readString(dir.resolve("second.svg")))).contains("again ×2")
        .contains("task second: waiting");
  }

  @Test
  void refusesUnknownMachinesAndInvalidFilesWithTheValidatorsWords() throws IOException {
    FsmJar.Result unknown = FsmJar.run(dir, "render", "lop");
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err()).contains("no machine `lop` in machines folder machines")
        .contains("did you mean");
    Files.writeString(dir.resolve("bad.yaml"), "machine: bad\nstates:\n  a: {on: {ok: b}}\n");
    FsmJar.Result bad = FsmJar.run(dir, "render", "bad.yaml");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).contains("bad.yaml:3:").contains("error:")
        .contains("machine file bad.yaml is not valid");
    assertThat(bad.out()).isEmpty();
  }

  @Test
  void refusesOutputPathsItCannotWriteAndBadOptions() {
    FsmJar.Result missing = FsmJar.run(dir, "render", "loop", "-o", "nowhere/loop.svg");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("cannot write nowhere/loop.svg: folder ")
        .contains("does not exist; create it first or choose another path with -o");
    FsmJar.Result folder = FsmJar.run(dir, "render", "loop", "-o", "machines");
    assertThat(folder.exit()).isEqualTo(1);
    assertThat(folder.err()).contains("-o machines is a folder");
    FsmJar.Result ext = FsmJar.run(dir, "render", "loop", "-o", "loop.txt");
    assertThat(ext.exit()).isEqualTo(2);
    assertThat(ext.err()).contains("cannot tell the format of loop.txt from its extension");
    FsmJar.Result both = FsmJar.run(dir, "render", "loop", "--task", "x", "--counts");
    assertThat(both.exit()).isEqualTo(2);
    assertThat(both.err()).contains("--task and --counts draw different overlays");
    FsmJar.Result png = FsmJar.run(dir, "render", "loop", "--format", "png");
    assertThat(png.exit()).isEqualTo(2);
    assertThat(png.err()).contains("PNG is binary; write it to a file with -o OUT.png");
    FsmJar.Result noDot = FsmJar.run(dir, NO_DOT, "render", "loop", "--format", "svg",
        "--engine", "dot");
    assertThat(noDot.exit()).isEqualTo(1);
    assertThat(noDot.err()).contains("no Graphviz `dot` on PATH; install Graphviz");
    FsmJar.Result noStore = FsmJar.run(dir, "render", "loop", "--counts", "--store", "none");
    assertThat(noStore.exit()).isEqualTo(1);
    assertThat(noStore.err()).contains("no fsm store at none");
  }

  private FsmJar.Result ok(String... args) {
    return new StoreCommands(dir, "store").ok(args);
  }

  /** The text of a well-formed SVG document; parsing fails the test otherwise. */
  private static String svgText(String svg) throws Exception {
    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
    return doc.getDocumentElement().getTextContent();
  }

  /** State names and events of a machine file: the keys under states and under each on. */
  private static List<String> namesIn(Path machineFile) throws IOException {
    List<String> names = new ArrayList<>();
    boolean inStates = false;
    for (String l : Files.readAllLines(machineFile)) {
      String code = l.replaceAll("#.*", "");
      if (code.startsWith("states:")) {
        inStates = true;
      } else if (inStates && code.matches("  [a-z][a-z0-9_-]*:.*")) {
        names.add(code.strip().substring(0, code.strip().indexOf(':')));
      }
      java.util.regex.Matcher on = java.util.regex.Pattern.compile("on: *\\{([^}]*)}")
          .matcher(code);
      if (on.find()) {
        for (String pair : on.group(1).split(",")) {
          names.add(pair.split(":")[0].strip());
        }
      } else if (inStates && code.matches("      [a-z][a-z0-9_-]*: *[a-z].*")) {
        names.add(code.strip().substring(0, code.strip().indexOf(':')));
      }
    }
    return names;
  }

  private static String line(String dot, String start) {
    return dot.lines().map(String::strip).filter(l -> l.startsWith(start)).findFirst()
        .orElseThrow(() -> new AssertionError("no line " + start + " in\n" + dot));
  }
}
