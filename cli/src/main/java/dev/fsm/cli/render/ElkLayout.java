package dev.fsm.cli.render;

import dev.fsm.cli.render.Layout.Box;
import dev.fsm.cli.render.Layout.Point;
import dev.fsm.cli.render.Layout.Route;
import dev.fsm.render.Diagram;
import dev.fsm.render.Diagram.Edge;
import dev.fsm.render.Diagram.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.elk.alg.layered.options.LayeredMetaDataProvider;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.data.LayoutMetaDataService;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.EdgeLabelPlacement;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkLabel;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

/**
 * Lays a diagram out with Eclipse ELK's layered algorithm (the Sugiyama method, as Graphviz's
 * {@code dot} uses), in pure Java: the route when no native Graphviz is installed.
 */
final class ElkLayout {

  private static final double START = 12;
  private static final double MARGIN = 12;

  private ElkLayout() {}

  static Layout of(Diagram diagram) {
    LayoutMetaDataService.getInstance()
        .registerLayoutMetaDataProviders(new LayeredMetaDataProvider());
    ElkNode root = ElkGraphUtil.createGraph();
    root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
    root.setProperty(CoreOptions.DIRECTION, switch (diagram.direction()) {
      case LR -> org.eclipse.elk.core.options.Direction.RIGHT;
      case RL -> org.eclipse.elk.core.options.Direction.LEFT;
      case TB -> org.eclipse.elk.core.options.Direction.DOWN;
      case BT -> org.eclipse.elk.core.options.Direction.UP;
    });
    // Orthogonal routes keep crowded machines readable and put labels on straight segments.
    root.setProperty(CoreOptions.EDGE_ROUTING, EdgeRouting.ORTHOGONAL);
    root.setProperty(CoreOptions.SPACING_NODE_NODE, 18.0);
    root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 36.0);
    root.setProperty(LayeredOptions.SPACING_EDGE_NODE_BETWEEN_LAYERS, 12.0);
    root.setProperty(CoreOptions.SPACING_EDGE_LABEL, 3.0);
    root.setProperty(CoreOptions.PADDING, new org.eclipse.elk.core.math.ElkPadding(MARGIN));

    ElkNode start = ElkGraphUtil.createNode(root);
    start.setDimensions(START, START);
    Map<String, ElkNode> nodes = new LinkedHashMap<>();
    for (Node node : diagram.nodes()) {
      ElkNode n = ElkGraphUtil.createNode(root);
      n.setDimensions(NodeText.width(node), NodeText.height(node));
      nodes.put(node.id(), n);
    }
    ElkEdge startEdge = ElkGraphUtil.createSimpleEdge(start, nodes.get(diagram.initial()));
    List<ElkEdge> edges = new ArrayList<>();
    for (Edge edge : diagram.edges()) {
      ElkEdge e = ElkGraphUtil.createSimpleEdge(nodes.get(edge.from()), nodes.get(edge.to()));
      ElkLabel label = ElkGraphUtil.createLabel(edge.label(), e);
      label.setDimensions(Math.ceil(TextWidth.of(edge.label(), NodeText.EDGE, false)) + 4,
          NodeText.EDGE * NodeText.LEADING);
      label.setProperty(CoreOptions.EDGE_LABELS_PLACEMENT, EdgeLabelPlacement.CENTER);
      edges.add(e);
    }
    new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());

    double top = NodeText.TITLE * 2;
    Map<String, Box> boxes = new HashMap<>();
    nodes.forEach((id, n) -> boxes.put(id, box(n, top)));
    List<Route> routes = edges.stream().map(e -> route(e, top)).toList();
    return new Layout(root.getWidth(), root.getHeight() + top, boxes, routes, box(start, top),
        route(startEdge, top));
  }

  private static Box box(ElkNode n, double top) {
    return new Box(n.getX(), n.getY() + top, n.getWidth(), n.getHeight());
  }

  private static Route route(ElkEdge edge, double top) {
    List<Point> points = new ArrayList<>();
    for (ElkEdgeSection s : edge.getSections()) {
      points.add(new Point(s.getStartX(), s.getStartY() + top));
      s.getBendPoints().forEach(b -> points.add(new Point(b.getX(), b.getY() + top)));
      points.add(new Point(s.getEndX(), s.getEndY() + top));
    }
    ElkLabel label = edge.getLabels().isEmpty() ? null : edge.getLabels().get(0);
    return new Route(points, label == null ? null
        : new Box(label.getX(), label.getY() + top, label.getWidth(), label.getHeight()));
  }
}
