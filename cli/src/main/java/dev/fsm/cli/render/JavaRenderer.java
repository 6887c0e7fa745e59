package dev.fsm.cli.render;

import dev.fsm.FsmException;
import dev.fsm.render.Diagram;
import java.awt.AWTError;
import java.nio.charset.StandardCharsets;

/** Renders SVG and PNG inside the JVM: ELK lays the diagram out, {@link Painter} draws it. */
public final class JavaRenderer {

  private JavaRenderer() {}

  /** The diagram as SVG or PNG bytes, laid out and drawn without external programs. */
  public static byte[] render(Diagram diagram, Format format) {
    Layout layout = ElkLayout.of(diagram);
    if (format == Format.svg) {
      SvgCanvas svg = new SvgCanvas(layout.width(), layout.height(), diagram.title());
      Painter.paint(diagram, layout, svg);
      return svg.finish().getBytes(StandardCharsets.UTF_8);
    }
    // PNG needs fonts; a container without any fails here rather than with a stack trace.
    System.setProperty("java.awt.headless", "true");
    try {
      ImageCanvas png = new ImageCanvas(layout.width(), layout.height());
      Painter.paint(diagram, layout, png);
      return png.finish();
    } catch (AWTError | UnsatisfiedLinkError | InternalError e) {
      throw new FsmException("cannot draw a PNG in this Java (" + e.getMessage() + "); install"
          + " fonts (fontconfig) or Graphviz (apt-get install graphviz), or render --format svg");
    }
  }
}
