package dev.fsm.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.model.Machine;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each rule of fsm's visual language, as it shows in the DOT text. */
class DotWriterTest {

  private static final Machine ORDER = Machines.order();
  private static final String DOT = DotWriter.write(Diagrams.of(ORDER, Overlay.NONE,
      Direction.LR));

  @Test
  void flowsLeftToRightByDefaultAndTheDirectionCanChange() {
    assertThat(DOT).startsWith("digraph \"order\" {\n").contains("rankdir=LR");
    String tb = DotWriter.write(Diagrams.of(ORDER, Overlay.NONE, Direction.TB));
    assertThat(tb).contains("rankdir=TB").doesNotContain("rankdir=LR");
  }

  @Test
  void marksTheInitialStateWithAStartPointAndABolderOutline() {
    assertThat(DOT).contains("start [shape=point").contains("start -> s0 [");
    assertThat(line("s0 [")).contains("<B>pay</B>").contains("penwidth=2.4");
    assertThat(line("s1 [")).contains("<B>ship</B>").contains("penwidth=1.2");
  }

  @Test
  void drawsFinalStatesAsDoubleSquareBoxesColouredByOutcome() {
    assertThat(line("s4 [")).contains("<B>delivered</B>").contains("completed")
        .contains("shape=box, style=\"filled\"").contains("peripheries=2")
        .contains("fillcolor=\"#e6f4ea\"");
    assertThat(line("s5 [")).contains("<B>cancelled</B>").contains("failed")
        .contains("peripheries=2").contains("fillcolor=\"#fce8e6\"");
  }

  @Test
  void setsWaitAndSignalStatesApartFromActionStates() {
    assertThat(line("s0 [")).contains("shape=box, style=\"filled,rounded\"")
        .doesNotContain("dashed");
    assertThat(line("s2 [")).contains("<B>ship_later</B>").contains("wait 5m")
        .contains("style=\"filled,rounded,dashed\"").contains("fillcolor=\"#e8f0fe\"");
    assertThat(line("s3 [")).contains("<B>await_signature</B>").contains("waits for a signal")
        .contains("shape=hexagon");
  }

  @Test
  void showsTheActionAndTimeoutCompactly() {
    assertThat(line("s0 [")).contains("builtin:noop").contains("timeout 10s");
    assertThat(line("s1 [")).contains("builtin:emit ok").contains("timeout p95");
    Machine longOne = Machines.read("""
        machine: long
        states:
          a:
            run: builtin:fail this message is far too long to fit in a diagram box
            timeout: 0
            on: {ok: b}
          b: {final: completed}
        """);
    String dot = DotWriter.write(Diagrams.of(longOne, Overlay.NONE, Direction.LR));
    assertThat(dot).contains("builtin:fail this message is…").doesNotContain("diagram box")
        .contains("no timeout, at most once");
  }

  @Test
  void labelsEdgesWithEventsAndStylesFailurePathsApart() {
    assertThat(line("s0 -> s1")).contains("label=\"ok\"").contains("color=\"#5f6368\"")
        .doesNotContain("dashed");
    assertThat(line("s0 -> s5")).contains("label=\"declined\"");
    assertThat(lines("s1 -> s2")).hasSize(2).allSatisfy(l -> assertThat(l)
        .contains("color=\"#c5221f\"").contains("style=dashed").contains("arrowhead=empty"));
    assertThat(lines("s1 -> s2")).anySatisfy(l -> assertThat(l).contains("label=\"error\""))
        .anySatisfy(l -> assertThat(l).contains("label=\"timeout\""));
  }

  @Test
  void drawsTheExhaustedEdgeRedWithAnOpenHeadButDottedApartFromError() {
    Machine refund = Machines.read("""
        machine: refund
        states:
          refund:
            run: builtin:fail down
            retry: {max_errors: 3}
            on: {ok: done, exhausted: review}
          review: {on: {done: done}}
          done: {final: completed}
        """);
    String dot = DotWriter.write(Diagrams.of(refund, Overlay.NONE, Direction.LR));
    assertThat(dot).contains("s0 -> s1 [label=\"exhausted\", color=\"#c5221f\", penwidth=1,"
        + " style=dotted, fontcolor=\"#c5221f\", arrowhead=empty];");
  }

  @Test
  void escapesOddNamesInEveryKindOfLabel() {
    // Machine files only allow plain names; a diagram must still never break on any text.
    String odd = "say \"hi\" <b>&\\ now\n";
    Diagram.Look look = Palette.ACTION;
    Diagram diagram = new Diagram(odd, Direction.LR, "s0",
        List.of(new Diagram.Node("s0", odd, List.of(odd), List.of(), Diagram.Outline.BOX, look)),
        List.of(new Diagram.Edge("s0", "s0", odd, false, Palette.EDGE)));
    String dot = DotWriter.write(diagram);
    assertThat(dot).startsWith("digraph \"say \\\"hi\\\" <b>&\\\\ now\\n\" {")
        .contains("<B>say &quot;hi&quot; &lt;b&gt;&amp;\\ now </B>")
        .contains("s0 -> s0 [label=\"say \\\"hi\\\" <b>&\\\\ now\\n\"");
  }

  @Test
  void keepsLargeMachinesCompact() {
    StringBuilder yaml = new StringBuilder("machine: big\nstates:\n");
    for (int i = 0; i < 60; i++) {
      yaml.append("  s").append(i).append(": {run: builtin:noop, on: {ok: ")
          .append(i == 59 ? "end" : "s" + (i + 1)).append(", error: end}}\n");
    }
    yaml.append("  end: {final: failed}\n");
    String dot = DotWriter.write(Diagrams.of(Machines.read(yaml.toString()), Overlay.NONE,
        Direction.LR));
    assertThat(dot).contains("nodesep=0.25, ranksep=0.4").contains("fontsize=11");
    assertThat(dot.lines().filter(l -> l.contains(" -> "))).hasSize(121);
  }

  private static String line(String start) {
    List<String> found = lines(start);
    assertThat(found).as("one line starting %s in%n%s", start, DOT).hasSize(1);
    return found.get(0);
  }

  private static List<String> lines(String start) {
    return Arrays.stream(DOT.split("\n")).map(String::strip).filter(l -> l.startsWith(start))
        .toList();
  }
}
