package dev.fsm.cli.verb.render;

import dev.fsm.FsmException;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.MachineFiles;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.common.TaskIdPrefix;
import dev.fsm.cli.render.Format;
import dev.fsm.cli.render.JavaRenderer;
import dev.fsm.cli.render.NativeDot;
import dev.fsm.cli.render.OutputFile;
import dev.fsm.cli.terminal.Style;
import dev.fsm.model.Machine;
import dev.fsm.operations.Operations;
import dev.fsm.render.Diagram;
import dev.fsm.render.Diagrams;
import dev.fsm.render.Direction;
import dev.fsm.render.DotWriter;
import dev.fsm.render.Overlay;
import dev.fsm.task.Task;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm render}: draws a machine, optionally with a task's path or task counts on it. */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    header = "Draw a machine as a diagram: DOT, SVG or PNG.",
    description = {
      "MACHINE is a machine's name (its file is found in the machines folder) or the path of a"
          + " machine file. Without -o the DOT text (or the SVG) goes to stdout.",
      "SVG and PNG use Graphviz's dot when it is on PATH, else fsm lays the diagram out itself"
          + " (Eclipse ELK), so they work with nothing installed."
    },
    footer = {
      "fsm render order -o order.svg",
      "fsm render order --task 01JD8X3K --format png -o now.png",
      "fsm render machines/order.yaml --format dot | dot -Tpdf > order.pdf"
    })
public final class Render implements Callable<Integer> {

  /** Who lays the diagram out. */
  enum Engine { auto, dot, java }

  @Parameters(index = "0", paramLabel = "MACHINE|FILE", description = "Machine name or file.")
  String machine;

  @Option(names = {"-o", "--output-file"}, paramLabel = "OUT",
      description = "Write here; the format follows its extension (.svg, .png, .dot, .gv).")
  Path outFile;

  @Option(names = "--format", paramLabel = "svg|png|dot",
      description = "The format (default: from OUT's extension, else dot).")
  Format format;

  @Option(names = "--direction", paramLabel = "LR|TB|RL|BT", defaultValue = "LR",
      description = "Which way the diagram flows (default: ${DEFAULT-VALUE}).")
  Direction direction;

  @Option(names = "--task", paramLabel = "ID",
      description = "Highlight this task's state and the path it took, with visit counts.")
  String task;

  @Option(names = "--counts",
      description = "Label each state with its tasks by status and shade the busiest.")
  boolean counts;

  @Option(names = "--engine", paramLabel = "auto|dot|java", defaultValue = "auto",
      description = "Layout for SVG and PNG: dot (Graphviz on PATH), java (built in), or auto"
          + " (dot when installed; default).")
  Engine engine;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (task != null && counts) {
      throw new ParameterException(spec.commandLine(),
          "--task and --counts draw different overlays; choose one");
    }
    if (outFile != null) {
      OutputFile.check(outFile);
    }
    Format chosen = chooseFormat();
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter err = spec.commandLine().getErr();
    Machine m = MachineFiles.read(machine, global.machines(), err,
        Style.forTerminal(global.colorAllowed())).machine();
    Diagram diagram = Diagrams.of(m, overlay(m, global), direction);
    byte[] bytes = chosen == Format.dot ? DotWriter.write(diagram).getBytes(StandardCharsets.UTF_8)
        : draw(diagram, chosen, global, err);
    if (outFile == null) {
      PrintWriter out = spec.commandLine().getOut();
      out.print(new String(bytes, StandardCharsets.UTF_8));
      out.flush();
    } else {
      OutputFile.write(outFile, bytes);
      err.println("wrote " + outFile + " (" + chosen + ", " + m.states().size() + " states)");
    }
    return ExitCodes.OK;
  }

  private Format chooseFormat() {
    Optional<Format> fromName = outFile == null ? Optional.empty() : Format.of(outFile);
    if (format == null && outFile != null && fromName.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "cannot tell the format of " + outFile
          + " from its extension; name it .svg, .png or .dot, or give --format svg|png|dot");
    }
    Format chosen = format != null ? format : fromName.orElse(Format.dot);
    if (chosen == Format.png && outFile == null) {
      throw new ParameterException(spec.commandLine(),
          "PNG is binary; write it to a file with -o OUT.png");
    }
    return chosen;
  }

  private Overlay overlay(Machine m, GlobalOptions global) {
    if (task == null && !counts) {
      return Overlay.NONE;
    }
    try (Operations control = TaskAccess.open(global, "fsm render", false)) {
      if (counts) {
        return Overlay.StateCounts.of(m, control.counts());
      }
      Task t = TaskIdPrefix.resolve(control, task);
      if (!t.machine().equals(m.name())) {
        throw new FsmException("task " + t.id() + " is a task of machine " + t.machine()
            + ", not " + m.name() + "; render it with `fsm render " + t.machine() + " --task "
            + task + "`");
      }
      return Overlay.TaskPath.of(m, t, control.history(t.id()));
    }
  }

  private byte[] draw(Diagram diagram, Format chosen, GlobalOptions global, PrintWriter err) {
    Optional<NativeDot> dot = engine == Engine.java ? Optional.empty()
        : NativeDot.find(global.env("PATH"));
    if (engine == Engine.dot && dot.isEmpty()) {
      throw new FsmException("--engine dot: no Graphviz `dot` on PATH; install Graphviz"
          + " (apt-get install graphviz, brew install graphviz) or use --engine java");
    }
    if (dot.isPresent()) {
      if (global.verbose()) {
        err.println("laying out with " + dot.get().program());
      }
      return dot.get().render(DotWriter.write(diagram), chosen);
    }
    if (global.verbose()) {
      err.println("laying out with fsm's built-in engine (Eclipse ELK)");
    }
    return JavaRenderer.render(diagram, chosen);
  }
}
