package dev.fsm.cli.render;

import dev.fsm.cli.render.Layout.Point;
import dev.fsm.render.Diagram.Line;
import java.util.List;

/** The few drawing primitives a diagram needs, so SVG and PNG are painted by the same code. */
interface Canvas {

  /** A closed shape; {@code fill} may be null for none. */
  void polygon(List<Point> points, String fill, String stroke, double width, Line line);

  /** A rectangle with corners rounded by {@code radius} (0 for square). */
  void rect(Layout.Box box, double radius, String fill, String stroke, double width, Line line);

  /** An open line through the points. */
  void polyline(List<Point> points, String stroke, double width, Line line);

  /** A filled circle. */
  void dot(Point center, double radius, String fill);

  /** One line of text centred on {@code x}, with its baseline at {@code y}. */
  void text(double x, double y, String text, double size, boolean bold, String color);

  /** Starts a group for one node or edge; {@code title} is what a viewer shows on hover. */
  void begin(String kind, String id, String title);

  /** Ends the group {@link #begin} started. */
  void end();
}
