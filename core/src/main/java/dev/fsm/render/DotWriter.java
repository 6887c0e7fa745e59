package dev.fsm.render;

import dev.fsm.render.Diagram.Edge;
import dev.fsm.render.Diagram.Line;
import dev.fsm.render.Diagram.Look;
import dev.fsm.render.Diagram.Node;
import dev.fsm.render.Diagram.Outline;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Writes a {@link Diagram} as Graphviz DOT text, for {@code dot} or for the user to edit. */
public final class DotWriter {

  static final String FONT = "Helvetica,Arial,sans-serif";

  private DotWriter() {}

  /** The DOT text of {@code diagram}; node ids are {@code s0, s1...}, labels carry the names. */
  public static String write(Diagram diagram) {
    StringBuilder out = new StringBuilder();
    out.append("digraph ").append(quote(diagram.title())).append(" {\n");
    // Tight spacing keeps 50-state machines on a page; labels are short by construction.
    out.append("  graph [rankdir=").append(diagram.direction().name())
        .append(", label=").append(quote(diagram.title()))
        .append(", labelloc=t, fontsize=13, fontname=").append(quote(FONT))
        .append(", nodesep=0.25, ranksep=0.4, pad=0.2, newrank=true];\n");
    out.append("  node [fontname=").append(quote(FONT))
        .append(", fontsize=11, margin=\"0.12,0.05\"];\n");
    out.append("  edge [fontname=").append(quote(FONT))
        .append(", fontsize=10, arrowsize=0.7];\n");
    out.append("  start [shape=point, width=0.16, color=").append(quote(Palette.INK))
        .append(", label=\"\"];\n");
    for (Node node : diagram.nodes()) {
      out.append("  ").append(node.id()).append(" [label=<").append(label(node)).append(">, ")
          .append(shape(node)).append("];\n");
    }
    out.append("  start -> ").append(diagram.initial()).append(" [color=")
        .append(quote(Palette.INK)).append(", penwidth=1.2];\n");
    for (Edge edge : diagram.edges()) {
      out.append("  ").append(edge.from()).append(" -> ").append(edge.to()).append(" [label=")
          .append(quote(edge.label())).append(", ").append(stroke(edge.look()))
          .append(", fontcolor=").append(quote(edge.look().text()))
          .append(edge.failure() ? ", arrowhead=empty" : "").append("];\n");
    }
    out.append("}\n");
    return out.toString();
  }

  private static String label(Node node) {
    StringBuilder html = new StringBuilder("<B>").append(html(node.name())).append("</B>");
    for (String detail : node.details()) {
      html.append("<BR/><FONT POINT-SIZE=\"9\" COLOR=\"").append(Palette.GREY).append("\">")
          .append(html(detail)).append("</FONT>");
    }
    for (String note : node.notes()) {
      html.append("<BR/><FONT POINT-SIZE=\"10\"><B>").append(html(note)).append("</B></FONT>");
    }
    return html.toString();
  }

  private static String shape(Node node) {
    Look look = node.look();
    List<String> style = new ArrayList<>(List.of("filled"));
    if (node.outline() == Outline.ROUNDED_BOX) {
      style.add("rounded");
    }
    if (look.line() != Line.SOLID) {
      style.add(look.line().name().toLowerCase(Locale.ROOT));
    }
    return "shape=" + (node.outline() == Outline.HEXAGON ? "hexagon" : "box")
        + ", style=" + quote(String.join(",", style))
        + ", fillcolor=" + quote(look.fill()) + ", color=" + quote(look.stroke())
        + ", penwidth=" + number(look.width()) + ", fontcolor=" + quote(look.text())
        + (look.peripheries() > 1 ? ", peripheries=" + look.peripheries() : "");
  }

  private static String stroke(Look look) {
    return "color=" + quote(look.stroke()) + ", penwidth=" + number(look.width())
        + (look.line() == Line.SOLID ? ""
            : ", style=" + look.line().name().toLowerCase(Locale.ROOT));
  }

  private static String number(double n) {
    return n == Math.rint(n) ? Long.toString((long) n) : String.format(Locale.ROOT, "%.1f", n);
  }

  /** A DOT double-quoted string: backslashes and quotes escaped, line breaks as {@code \n}. */
  static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '"' -> out.append("\\\"");
        case '\n' -> out.append("\\n");
        case '\r' -> { }
        default -> out.append(c);
      }
    }
    return out.append('"').toString();
  }

  /** Text inside a DOT HTML label: markup characters as entities, control characters as spaces. */
  static String html(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        default -> out.append(Character.isISOControl(c) ? ' ' : c);
      }
    }
    return out.toString();
  }
}
