package dev.fsm.cli.render;

import dev.fsm.cli.render.Layout.Box;
import dev.fsm.cli.render.Layout.Point;
import dev.fsm.cli.render.Layout.Route;
import dev.fsm.cli.render.NodeText.TextLine;
import dev.fsm.render.Diagram;
import dev.fsm.render.Diagram.Edge;
import dev.fsm.render.Diagram.Line;
import dev.fsm.render.Diagram.Look;
import dev.fsm.render.Diagram.Node;
import dev.fsm.render.Diagram.Outline;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Paints a laid-out diagram on a canvas, following the looks the {@link Diagram} decided. */
final class Painter {

  private static final double ARROW = 7;
  private static final String INK = "#202124";

  private Painter() {}

  static void paint(Diagram diagram, Layout layout, Canvas canvas) {
    canvas.rect(new Box(0, 0, layout.width(), layout.height()), 0, "#ffffff", null, 0,
        Line.SOLID);
    canvas.text(layout.width() / 2, NodeText.TITLE * 1.4, diagram.title(), NodeText.TITLE, false,
        INK);
    Map<String, String> names = diagram.nodes().stream()
        .collect(Collectors.toMap(Node::id, Node::name));
    for (int i = 0; i < diagram.edges().size(); i++) {
      Edge edge = diagram.edges().get(i);
      canvas.begin("edge", "e" + i, names.get(edge.from()) + " -> " + names.get(edge.to()));
      edge(edge, layout.routes().get(i), canvas);
      canvas.end();
    }
    canvas.begin("node", "start", "start");
    Box s = layout.start();
    canvas.dot(new Point(s.centerX(), s.y() + s.h() / 2), s.w() / 2, INK);
    line(layout.startRoute().points(), INK, 1.2, Line.SOLID, false, canvas);
    canvas.end();
    for (Node node : diagram.nodes()) {
      canvas.begin("node", node.id(), node.name());
      node(node, layout.boxes().get(node.id()), canvas);
      canvas.end();
    }
  }

  private static void node(Node node, Box b, Canvas canvas) {
    Look look = node.look();
    if (node.outline() == Outline.HEXAGON) {
      double side = NodeText.hexagonSide();
      double mid = b.y() + b.h() / 2;
      canvas.polygon(List.of(new Point(b.x() + side, b.y()), new Point(b.x() + b.w() - side,
          b.y()), new Point(b.x() + b.w(), mid), new Point(b.x() + b.w() - side, b.y() + b.h()),
          new Point(b.x() + side, b.y() + b.h()), new Point(b.x(), mid)), look.fill(),
          look.stroke(), look.width(), look.line());
    } else {
      double radius = node.outline() == Outline.ROUNDED_BOX ? 6 : 0;
      canvas.rect(b, radius, look.fill(), look.stroke(), look.width(), look.line());
      if (look.peripheries() > 1) {
        double g = NodeText.peripheryGap();
        canvas.rect(new Box(b.x() + g, b.y() + g, b.w() - 2 * g, b.h() - 2 * g), radius, null,
            look.stroke(), look.width(), look.line());
      }
    }
    List<TextLine> lines = NodeText.lines(node);
    double total = lines.stream().mapToDouble(l -> l.size() * NodeText.LEADING).sum();
    double cursor = b.y() + (b.h() - total) / 2;
    for (TextLine l : lines) {
      double height = l.size() * NodeText.LEADING;
      // The baseline sits a little below the middle of the line's slot.
      canvas.text(b.centerX(), cursor + height / 2 + l.size() * 0.35, l.text(), l.size(),
          l.bold(), l.color());
      cursor += height;
    }
  }

  private static void edge(Edge edge, Route route, Canvas canvas) {
    Look look = edge.look();
    line(route.points(), look.stroke(), look.width(), look.line(), edge.failure(), canvas);
    Box label = route.label();
    if (label != null) {
      canvas.text(label.centerX(), label.y() + label.h() * 0.75, edge.label(), NodeText.EDGE,
          false, look.text());
    }
  }

  /** A line with an arrowhead at its end; failure paths get an open arrowhead, as in DOT. */
  private static void line(List<Point> points, String color, double width, Line style,
      boolean open, Canvas canvas) {
    if (points.size() < 2) {
      return;
    }
    Point tip = points.get(points.size() - 1);
    Point from = points.get(points.size() - 2);
    double dx = tip.x() - from.x();
    double dy = tip.y() - from.y();
    double len = Math.max(1e-6, Math.hypot(dx, dy));
    double ux = dx / len;
    double uy = dy / len;
    Point base = new Point(tip.x() - ux * ARROW, tip.y() - uy * ARROW);
    List<Point> shaft = new java.util.ArrayList<>(points.subList(0, points.size() - 1));
    shaft.add(base);
    canvas.polyline(shaft, color, width, style);
    double half = ARROW * 0.45;
    canvas.polygon(List.of(tip, new Point(base.x() - uy * half, base.y() + ux * half),
        new Point(base.x() + uy * half, base.y() - ux * half)), open ? "#ffffff" : color, color,
        Math.min(width, 1.4), Line.SOLID);
  }
}
