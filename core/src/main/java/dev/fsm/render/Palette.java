package dev.fsm.render;

import dev.fsm.render.Diagram.Line;
import dev.fsm.render.Diagram.Look;

/** The colours and strokes of fsm's diagrams, in one place so every format agrees. */
final class Palette {

  static final String INK = "#202124";
  static final String GREY = "#5f6368";
  static final String FADED = "#bdc1c6";
  static final String PATH = "#1a73e8";
  static final String FAILURE = "#c5221f";
  static final String HEAT = "#f9ab00";
  static final String WHITE = "#ffffff";

  static final Look ACTION = new Look(WHITE, "#3c4043", 1.2, Line.SOLID, 1, INK);
  static final Look WAIT = new Look("#e8f0fe", "#1967d2", 1.2, Line.DASHED, 1, INK);
  static final Look EXTERNAL = new Look("#fef7e0", "#b06000", 1.2, Line.SOLID, 1, INK);
  static final Look COMPLETED = new Look("#e6f4ea", "#137333", 1.2, Line.SOLID, 2, INK);
  static final Look FAILED = new Look("#fce8e6", FAILURE, 1.2, Line.SOLID, 2, INK);

  static final Look EDGE = new Look(WHITE, GREY, 1.0, Line.SOLID, 1, INK);
  static final Look FAILURE_EDGE = new Look(WHITE, FAILURE, 1.0, Line.DASHED, 1, FAILURE);
  /** Red like the error edge it follows, dotted so the two read apart. */
  static final Look EXHAUSTED_EDGE = new Look(WHITE, FAILURE, 1.0, Line.DOTTED, 1, FAILURE);

  /** Extra stroke for the initial state, on top of its kind's. */
  static final double INITIAL_WIDTH = 2.4;
  static final double PATH_WIDTH = 2.4;
  static final double CURRENT_WIDTH = 3.4;

  private Palette() {}

  /**
   * A fill between {@code base} and the heat colour: 0 keeps the base, 1 is full heat. Shading
   * starts at a third so a state holding a single task still stands out from an empty one.
   */
  static String heat(String base, double share) {
    double t = share <= 0 ? 0 : 0.3 + 0.7 * Math.min(1, share);
    return mix(base, HEAT, t);
  }

  static String mix(String from, String to, double t) {
    StringBuilder out = new StringBuilder("#");
    for (int i = 1; i < 7; i += 2) {
      int a = Integer.parseInt(from.substring(i, i + 2), 16);
      int b = Integer.parseInt(to.substring(i, i + 2), 16);
      out.append(String.format("%02x", Math.round(a + (b - a) * t)));
    }
    return out.toString();
  }
}
