package dev.fsm.validate;

import dev.fsm.action.ProgramPath;
import dev.fsm.diagnostic.Problems;
import dev.fsm.model.Action;
import dev.fsm.model.Behavior;
import dev.fsm.model.Machine;
import dev.fsm.model.State;
import dev.fsm.yaml.SourceMap;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/** Checks that every program a machine runs exists and is executable. */
final class ProgramChecks {

  private ProgramChecks() {}

  static void run(Machine machine, SourceMap sources, Problems problems) {
    for (State state : machine.states().values()) {
      if (state.behavior() instanceof Behavior.Run run
          && run.action() instanceof Action.Program program) {
        check(machine, state, program.program(), sources, problems);
      }
    }
  }

  private static void check(Machine machine, State state, String program, SourceMap sources,
      Problems problems) {
    var at = sources.at(SourceMap.stateKey(state.name(), "run"));
    String where = " (state `" + state.name() + "`)";
    if (!program.contains("/")) {
      if (ProgramPath.onPath(program, System.getenv("PATH")).isEmpty()) {
        problems.error(at, "program `" + program + "` is not on PATH" + where,
            "install it, or give a path relative to the machine file, e.g. `scripts/"
                + program + "`");
      }
      return;
    }
    Path path;
    try {
      path = machine.folder().resolve(program).normalize();
    } catch (InvalidPathException e) {
      problems.error(at, "program path `" + program + "` is not a valid path" + where);
      return;
    }
    if (!Files.exists(path)) {
      problems.error(at, "program `" + program + "` does not exist" + where,
          "looked for " + path + "; relative paths start at the machine file's folder");
    } else if (Files.isDirectory(path)) {
      problems.error(at, "program `" + program + "` is a folder, not a program" + where);
    } else if (!Files.isExecutable(path)) {
      problems.error(at, "program `" + program + "` is not executable" + where,
          "run `chmod +x " + path + "`");
    }
  }
}
