package dev.fsm.cli.render;

import dev.fsm.cli.render.Layout.Box;
import dev.fsm.cli.render.Layout.Point;
import dev.fsm.render.Diagram.Line;
import java.util.List;
import java.util.Locale;

/** A canvas that writes SVG 1.1 text. */
final class SvgCanvas implements Canvas {

  private static final String FONT = "Helvetica,Arial,sans-serif";

  private final StringBuilder svg = new StringBuilder();

  SvgCanvas(double width, double height, String title) {
    svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(n(width))
        .append("pt\" height=\"").append(n(height)).append("pt\" viewBox=\"0 0 ")
        .append(n(width)).append(' ').append(n(height)).append("\" font-family=\"").append(FONT)
        .append("\">\n<title>").append(xml(title)).append("</title>\n");
  }

  /** The finished document. */
  String finish() {
    return svg.append("</svg>\n").toString();
  }

  @Override
  public void polygon(List<Point> points, String fill, String stroke, double width, Line line) {
    svg.append("<polygon points=\"");
    for (Point p : points) {
      svg.append(n(p.x())).append(',').append(n(p.y())).append(' ');
    }
    svg.setLength(svg.length() - 1);
    svg.append('"').append(paint(fill, stroke, width, line)).append("/>\n");
  }

  @Override
  public void rect(Box b, double radius, String fill, String stroke, double width, Line line) {
    svg.append("<rect x=\"").append(n(b.x())).append("\" y=\"").append(n(b.y()))
        .append("\" width=\"").append(n(b.w())).append("\" height=\"").append(n(b.h()))
        .append('"');
    if (radius > 0) {
      svg.append(" rx=\"").append(n(radius)).append('"');
    }
    svg.append(paint(fill, stroke, width, line)).append("/>\n");
  }

  @Override
  public void polyline(List<Point> points, String stroke, double width, Line line) {
    svg.append("<path d=\"");
    for (int i = 0; i < points.size(); i++) {
      svg.append(i == 0 ? "M" : " L").append(n(points.get(i).x())).append(',')
          .append(n(points.get(i).y()));
    }
    svg.append('"').append(paint(null, stroke, width, line)).append("/>\n");
  }

  @Override
  public void dot(Point c, double radius, String fill) {
    svg.append("<circle cx=\"").append(n(c.x())).append("\" cy=\"").append(n(c.y()))
        .append("\" r=\"").append(n(radius)).append("\" fill=\"").append(fill).append("\"/>\n");
  }

  @Override
  public void text(double x, double y, String text, double size, boolean bold, String color) {
    svg.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y))
        .append("\" text-anchor=\"middle\" font-size=\"").append(n(size)).append('"')
        .append(bold ? " font-weight=\"bold\"" : "").append(" fill=\"").append(color)
        .append("\">").append(xml(text)).append("</text>\n");
  }

  @Override
  public void begin(String kind, String id, String title) {
    svg.append("<g class=\"").append(kind).append("\" id=\"").append(xml(id)).append("\"><title>")
        .append(xml(title)).append("</title>\n");
  }

  @Override
  public void end() {
    svg.append("</g>\n");
  }

  private static String paint(String fill, String stroke, double width, Line line) {
    StringBuilder a = new StringBuilder(" fill=\"").append(fill == null ? "none" : fill)
        .append('"');
    if (stroke != null && width > 0) {
      a.append(" stroke=\"").append(stroke).append("\" stroke-width=\"").append(n(width))
          .append('"');
      if (line == Line.DASHED) {
        a.append(" stroke-dasharray=\"5,3\"");
      } else if (line == Line.DOTTED) {
        a.append(" stroke-dasharray=\"1.5,2.5\"");
      }
    }
    return a.toString();
  }

  private static String n(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
  }

  /** Text as XML character data or attribute value; characters XML 1.0 forbids are dropped. */
  static String xml(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        default -> {
          if (c >= 0x20 || c == '\t' || c == '\n') {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
