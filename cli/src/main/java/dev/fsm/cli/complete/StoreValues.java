package dev.fsm.cli.complete;

import dev.fsm.FsmException;
import dev.fsm.cli.common.CommandTree;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.model.Machine;
import dev.fsm.model.State;
import dev.fsm.operations.Operations;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.StoreLocation;
import dev.fsm.task.Task;
import dev.fsm.validate.Validator;
import dev.fsm.yaml.MachineReader;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Completion values from the machines folder and the store. The store is opened for one lookup
 * and closed (or asked through the runner's socket), so completing never blocks a runner; a
 * missing or busy store simply offers nothing.
 */
public final class StoreValues implements Values {

  private static final int MAX_IDS = 200;

  private final GlobalOptions global;

  private StoreValues(GlobalOptions global) {
    this.global = global;
  }

  /** Values for a line in this environment where {@code typed} holds the options given. */
  public static Values of(CommandTree tree, Map<String, String> env,
      Map<String, String> typed) {
    PrintWriter none = new PrintWriter(Writer.nullWriter());
    CommandLine cmd = tree.build(none, none, env);
    List<String> args = new ArrayList<>();
    for (String name : List.of("--store", "--machines")) {
      if (typed.containsKey(name)) {
        args.add(name + "=" + typed.get(name));
      }
    }
    try {
      cmd.parseArgs(args.toArray(String[]::new));
    } catch (ParameterException e) {
      // A half-typed option: complete against the defaults.
    }
    return new StoreValues(GlobalOptions.of(cmd.getCommandSpec()));
  }

  @Override
  public List<String> taskIds(String prefix) {
    return ask(c -> c.idsStartingWith(prefix, MAX_IDS));
  }

  @Override
  public List<String> machines() {
    TreeSet<String> names = new TreeSet<>();
    inFolder().forEach(m -> names.add(m.name()));
    names.addAll(ask(Operations::machineNames));
    return List.copyOf(names);
  }

  @Override
  public List<String> states(String machine) {
    TreeSet<String> names = new TreeSet<>();
    for (Machine m : inFolder()) {
      if (machine == null || m.name().equals(machine)) {
        names.addAll(m.stateNames());
      }
    }
    return List.copyOf(names);
  }

  @Override
  public List<String> events(String taskId) {
    return ask(c -> task(c, taskId).flatMap(t -> machineOf(c, t)
        .flatMap(m -> m.state(t.state())).map(State::on)
        // `exhausted` is the retry policy's to fire; a signal of it is refused.
        .map(on -> on.keySet().stream().filter(e -> !e.equals(State.EXHAUSTED)).toList()))
        .orElse(List.of()));
  }

  @Override
  public List<String> taskStates(String taskId) {
    return ask(c -> task(c, taskId).flatMap(t -> machineOf(c, t))
        .map(m -> m.stateNames().stream()
            .filter(n -> m.state(n).map(s -> !s.isFinal()).orElse(false)).toList())
        .orElse(List.of()));
  }

  /** The task an id or a unique start of one names. */
  private static Optional<Task> task(Operations control, String typedId) {
    Optional<Task> task = control.get(typedId);
    if (task.isEmpty()) {
      List<String> ids = control.idsStartingWith(typedId, 2);
      task = ids.size() == 1 ? control.get(ids.get(0)) : Optional.empty();
    }
    return task;
  }

  /** The machine version the task is pinned to, as the store registered it. */
  private static Optional<Machine> machineOf(Operations control, Task task) {
    for (MachineVersion v : control.versions(task.machine())) {
      if (v.version().equals(task.version())) {
        return MachineReader.read(Path.of(task.machine() + ".yaml"), v.definition()).machine();
      }
    }
    return Optional.empty();
  }

  private List<Machine> inFolder() {
    List<Machine> found = new ArrayList<>();
    Path folder = global.machines();
    if (!Files.isDirectory(folder)) {
      return found;
    }
    try {
      for (Path file : Validator.machineFiles(folder)) {
        MachineReader.read(file).machine().ifPresent(found::add);
      }
    } catch (FsmException e) {
      // An unreadable folder offers no machines; validate says why.
    }
    return found;
  }

  private <T> List<T> ask(Function<Operations, List<T>> question) {
    // A missing store folder offers nothing at once; a database is asked (it says if missing).
    try {
      if (StoreLocation.parse(global.store()) instanceof StoreLocation.Folder folder
          && !Files.isDirectory(folder.path())) {
        return List.of();
      }
    } catch (RuntimeException e) {
      return List.of();
    }
    try (Operations control = TaskAccess.open(global, "fsm completion", false)) {
      return question.apply(control);
    } catch (RuntimeException e) {
      // Completion must never interrupt typing: a store that cannot answer offers nothing.
      return List.of();
    }
  }
}
