package dev.fsm.cli.render;

import dev.fsm.render.Diagram.Node;
import dev.fsm.render.Diagram.Outline;
import java.util.ArrayList;
import java.util.List;

/** A node's lines of text and the box they need: the sizes the DOT writer asks Graphviz for. */
final class NodeText {

  static final double NAME = 11;
  static final double DETAIL = 9;
  static final double NOTE = 10;
  static final double EDGE = 10;
  static final double TITLE = 13;
  static final double LEADING = 1.3;
  static final String DETAIL_COLOR = "#5f6368";

  private static final double PAD_X = 10;
  private static final double PAD_Y = 6;
  private static final double HEXAGON_SIDE = 12;
  private static final double PERIPHERY_GAP = 4;

  /** One line: its text, size, weight and colour. */
  record TextLine(String text, double size, boolean bold, String color) {}

  private NodeText() {}

  /** The lines of a node: its name, its details, its overlay notes. */
  static List<TextLine> lines(Node node) {
    List<TextLine> lines = new ArrayList<>();
    lines.add(new TextLine(node.name(), NAME, true, node.look().text()));
    for (String d : node.details()) {
      lines.add(new TextLine(d, DETAIL, false, DETAIL_COLOR));
    }
    for (String n : node.notes()) {
      lines.add(new TextLine(n, NOTE, true, node.look().text()));
    }
    return lines;
  }

  static double width(Node node) {
    double text = lines(node).stream().mapToDouble(l -> TextWidth.of(l.text(), l.size(), l.bold()))
        .max().orElse(0);
    return Math.ceil(text + 2 * PAD_X + (node.outline() == Outline.HEXAGON ? 2 * HEXAGON_SIDE : 0)
        + (node.look().peripheries() > 1 ? 2 * PERIPHERY_GAP : 0));
  }

  static double height(Node node) {
    double text = lines(node).stream().mapToDouble(l -> l.size() * LEADING).sum();
    return Math.ceil(text + 2 * PAD_Y + (node.look().peripheries() > 1 ? 2 * PERIPHERY_GAP : 0));
  }

  static double hexagonSide() {
    return HEXAGON_SIDE;
  }

  static double peripheryGap() {
    return PERIPHERY_GAP;
  }
}
