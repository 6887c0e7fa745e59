package dev.fsm.cli.render;

import dev.fsm.cli.render.Layout.Box;
import dev.fsm.cli.render.Layout.Point;
import dev.fsm.render.Diagram.Line;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import javax.imageio.ImageIO;

/** A canvas that paints with Java2D into an image and encodes it as PNG: no Graphviz needed. */
final class ImageCanvas implements Canvas {

  /** Pixels per point: 96 dpi, as Graphviz's own PNGs are. */
  private static final double SCALE = 96.0 / 72.0;

  private final BufferedImage image;
  private final Graphics2D g;

  ImageCanvas(double width, double height) {
    image = new BufferedImage((int) Math.ceil(width * SCALE), (int) Math.ceil(height * SCALE),
        BufferedImage.TYPE_INT_RGB);
    g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING,
        RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
    g.scale(SCALE, SCALE);
  }

  /** The PNG bytes of what was painted. */
  byte[] finish() {
    g.dispose();
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    try {
      ImageIO.write(image, "png", png);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return png.toByteArray();
  }

  @Override
  public void polygon(List<Point> points, String fill, String stroke, double width, Line line) {
    Path2D path = path(points);
    path.closePath();
    draw(path, fill, stroke, width, line);
  }

  @Override
  public void rect(Box b, double radius, String fill, String stroke, double width, Line line) {
    Shape shape = radius > 0
        ? new RoundRectangle2D.Double(b.x(), b.y(), b.w(), b.h(), 2 * radius, 2 * radius)
        : new Rectangle2D.Double(b.x(), b.y(), b.w(), b.h());
    draw(shape, fill, stroke, width, line);
  }

  @Override
  public void polyline(List<Point> points, String stroke, double width, Line line) {
    draw(path(points), null, stroke, width, line);
  }

  @Override
  public void dot(Point c, double radius, String fill) {
    g.setColor(Color.decode(fill));
    g.fill(new java.awt.geom.Ellipse2D.Double(c.x() - radius, c.y() - radius, 2 * radius,
        2 * radius));
  }

  @Override
  public void text(double x, double y, String text, double size, boolean bold, String color) {
    g.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, 1).deriveFont(
        (float) size));
    g.setColor(Color.decode(color));
    float width = (float) g.getFontMetrics().getStringBounds(text, g).getWidth();
    g.drawString(text, (float) x - width / 2, (float) y);
  }

  @Override
  public void begin(String kind, String id, String title) {}

  @Override
  public void end() {}

  private void draw(Shape shape, String fill, String stroke, double width, Line line) {
    if (fill != null) {
      g.setColor(Color.decode(fill));
      g.fill(shape);
    }
    if (stroke != null && width > 0) {
      g.setColor(Color.decode(stroke));
      float[] dash = line == Line.DASHED ? new float[] {5, 3}
          : line == Line.DOTTED ? new float[] {1.5f, 2.5f} : null;
      g.setStroke(new BasicStroke((float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND,
          10, dash, 0));
      g.draw(shape);
    }
  }

  private static Path2D path(List<Point> points) {
    Path2D path = new Path2D.Double();
    path.moveTo(points.get(0).x(), points.get(0).y());
    for (Point p : points.subList(1, points.size())) {
      path.lineTo(p.x(), p.y());
    }
    return path;
  }
}
