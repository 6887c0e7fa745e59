package dev.fsm.cli.render;

import java.util.List;
import java.util.Map;

/**
 * Where everything of a diagram goes, in SVG user units (points), with the origin top left.
 *
 * @param width the whole drawing's width
 * @param height the whole drawing's height
 * @param boxes each node's box by node id
 * @param routes one per diagram edge, in the diagram's order
 * @param start the start marker's box
 * @param startRoute the arrow from the start marker to the initial state
 */
record Layout(double width, double height, Map<String, Box> boxes, List<Route> routes,
    Box start, Route startRoute) {

  /** A rectangle. */
  record Box(double x, double y, double w, double h) {
    double centerX() {
      return x + w / 2;
    }
  }

  /** A point. */
  record Point(double x, double y) {}

  /**
   * An edge's line, from its source's border to its target's, and its label's box.
   *
   * @param label where the label goes, or null when it has none
   */
  record Route(List<Point> points, Box label) {
    Route {
      points = List.copyOf(points);
    }
  }
}
