package dev.fsm.model;

import java.util.List;

/** The work a state runs: a program, a built-in, or a Java class from a plugin jar. */
public sealed interface Action {

  /** How the action was written in the machine file, for display. */
  String text();

  /**
   * A program run without a shell.
   *
   * @param argv the program and its arguments; a relative program path resolves against the
   *     machine file's folder
   */
  record Program(List<String> argv, String text) implements Action {
    public Program {
      argv = List.copyOf(argv);
    }

    /** The program to execute, as written. */
    public String program() {
      return argv.get(0);
    }
  }

  /** A built-in action such as {@code builtin:noop}. */
  record Builtin(BuiltinAction builtin, List<String> args, String text) implements Action {
    public Builtin {
      args = List.copyOf(args);
    }
  }

  /** A class implementing fsm's action interface, loaded from a plugin jar. */
  record JavaClass(String className, String text) implements Action {}
}
