package dev.fsm.render;

import dev.fsm.model.Behavior;
import dev.fsm.model.Machine;
import dev.fsm.model.Outcome;
import dev.fsm.model.State;
import dev.fsm.render.Diagram.Edge;
import dev.fsm.render.Diagram.Look;
import dev.fsm.render.Diagram.Node;
import dev.fsm.render.Diagram.Outline;
import dev.fsm.render.Overlay.StateCounts;
import dev.fsm.render.Overlay.TaskPath;
import dev.fsm.task.ShownStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Turns a machine and an overlay into a {@link Diagram}: fsm's visual language, decided once. */
public final class Diagrams {

  private Diagrams() {}

  /** The diagram of {@code machine}, with live data from {@code overlay} drawn over it. */
  public static Diagram of(Machine machine, Overlay overlay, Direction direction) {
    Map<String, String> ids = new HashMap<>();
    for (String name : machine.stateNames()) {
      ids.put(name, "s" + ids.size());
    }
    List<Node> nodes = new ArrayList<>();
    List<Edge> edges = new ArrayList<>();
    for (State state : machine.states().values()) {
      nodes.add(node(ids.get(state.name()), state, state.name().equals(machine.initial()),
          overlay));
      state.on().forEach((event, to) -> {
        if (ids.containsKey(to)) {
          edges.add(edge(ids.get(state.name()), ids.get(to), state.name(), event, overlay));
        }
      });
    }
    return new Diagram(title(machine, overlay), direction, ids.get(machine.initial()), nodes,
        edges);
  }

  private static String title(Machine machine, Overlay overlay) {
    if (overlay instanceof TaskPath path) {
      return machine.name() + ": task " + path.taskId() + " (" + path.status().word() + " in "
          + path.state() + ")";
    } else if (overlay instanceof StateCounts counts) {
      long total = counts.byState().values().stream()
          .mapToLong(m -> m.values().stream().mapToLong(Long::longValue).sum()).sum();
      return machine.name() + ": " + total + (total == 1 ? " task" : " tasks") + " by state";
    }
    return machine.name();
  }

  private static Node node(String id, State state, boolean initial, Overlay overlay) {
    Look look = base(state.behavior());
    if (initial) {
      look = look.stroked(look.stroke(), Palette.INITIAL_WIDTH);
    }
    Outline outline = state.behavior() instanceof Behavior.External ? Outline.HEXAGON
        : state.isFinal() ? Outline.BOX : Outline.ROUNDED_BOX;
    List<String> notes = List.of();
    if (overlay instanceof TaskPath path) {
      if (path.state().equals(state.name())) {
        look = look.stroked(Palette.PATH, Palette.CURRENT_WIDTH);
        notes = List.of("task " + Captions.taskId(path.taskId()) + ": " + path.status().word());
      } else if (path.visited().contains(state.name())) {
        look = look.stroked(Palette.PATH, Palette.PATH_WIDTH);
      } else {
        // States the task never entered recede, so its path reads at a glance.
        look = look.stroked(Palette.FADED, look.width()).texted(Palette.GREY);
      }
    } else if (overlay instanceof StateCounts counts) {
      Map<ShownStatus, Long> here = counts.of(state);
      long total = here.values().stream().mapToLong(Long::longValue).sum();
      notes = Captions.counts(here);
      look = look.filled(Palette.heat(look.fill(), (double) total / counts.max()));
    }
    return new Node(id, state.name(), Captions.details(state), notes, outline, look);
  }

  private static Look base(Behavior behavior) {
    if (behavior instanceof Behavior.Run) {
      return Palette.ACTION;
    } else if (behavior instanceof Behavior.Wait) {
      return Palette.WAIT;
    } else if (behavior instanceof Behavior.External) {
      return Palette.EXTERNAL;
    }
    return ((Behavior.Final) behavior).outcome() == Outcome.COMPLETED ? Palette.COMPLETED
        : Palette.FAILED;
  }

  private static Edge edge(String fromId, String toId, String from, String event,
      Overlay overlay) {
    boolean exhausted = event.equals(State.EXHAUSTED);
    boolean failure = exhausted || event.equals(State.ERROR) || event.equals(State.TIMEOUT);
    Look look = exhausted ? Palette.EXHAUSTED_EDGE
        : failure ? Palette.FAILURE_EDGE : Palette.EDGE;
    String label = event;
    if (overlay instanceof TaskPath path) {
      int times = path.times(from, event);
      if (times > 0) {
        look = look.stroked(failure ? Palette.FAILURE : Palette.PATH, Palette.PATH_WIDTH);
        label = times > 1 ? event + " ×" + times : event;
      } else {
        look = look.stroked(Palette.FADED, look.width()).texted(Palette.GREY);
      }
    }
    return new Edge(fromId, toId, label, failure, look);
  }
}
