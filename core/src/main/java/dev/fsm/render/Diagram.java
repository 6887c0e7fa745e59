package dev.fsm.render;

import java.util.List;

/**
 * A machine drawn as boxes and arrows, with every visual decision already made: the one model
 * that both the DOT writer and fsm's own SVG and PNG drawing follow, so every format looks alike.
 *
 * @param title the caption: the machine's name and what the overlay shows
 * @param direction which way the graph flows
 * @param initial the id of the node a start marker points at
 * @param nodes one per state, in file order
 * @param edges one per event edge, in file order
 */
public record Diagram(String title, Direction direction, String initial, List<Node> nodes,
    List<Edge> edges) {

  public Diagram {
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
  }

  /**
   * A node's outline: rounded for states that act or wait, square for final states, a hexagon
   * for states waiting for a signal.
   */
  public enum Outline { ROUNDED_BOX, BOX, HEXAGON }

  /** How a line is stroked. */
  public enum Line { SOLID, DASHED, DOTTED }

  /**
   * Colours and strokes of a node or an edge.
   *
   * @param fill a node's background ({@code #rrggbb}); unused for edges
   * @param stroke the outline or line colour
   * @param width the stroke width in points
   * @param line how the outline or line is stroked
   * @param peripheries 2 draws a double outline (final states), else 1
   * @param text the colour of the label
   */
  public record Look(String fill, String stroke, double width, Line line, int peripheries,
      String text) {

    /** This look with another stroke colour and width. */
    public Look stroked(String color, double newWidth) {
      return new Look(fill, color, newWidth, line, peripheries, text);
    }

    /** This look with another fill. */
    public Look filled(String color) {
      return new Look(color, stroke, width, line, peripheries, text);
    }

    /** This look with another label colour. */
    public Look texted(String color) {
      return new Look(fill, stroke, width, line, peripheries, color);
    }
  }

  /**
   * One state.
   *
   * @param id a generated id ({@code s0}, {@code s1}...), safe in any format whatever the name
   * @param name the state's name, drawn bold
   * @param details small grey lines: the action and timeout, the wait, the outcome
   * @param notes overlay lines: task counts or the task's status
   */
  public record Node(String id, String name, List<String> details, List<String> notes,
      Outline outline, Look look) {

    public Node {
      details = List.copyOf(details);
      notes = List.copyOf(notes);
    }
  }

  /**
   * One edge.
   *
   * @param label the event, with the number of times a task took it when more than once
   * @param failure true for {@code error}, {@code timeout} and {@code exhausted} edges
   */
  public record Edge(String from, String to, String label, boolean failure, Look look) {}
}
