package dev.fsm.cli.common;

import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Builds a fresh tree of every verb, for the verbs that run other command lines (the shell) or
 * parse them (completion). The root command provides it, so those verbs need not know the class
 * that lists the verbs, which would tie every verb package into one cycle.
 */
@FunctionalInterface
public interface CommandTree {

  /** A new command tree, with its own global options, writing to the given streams. */
  CommandLine build(PrintWriter out, PrintWriter err, Map<String, String> env);

  /** The tree builder of the command line {@code spec} belongs to. */
  static CommandTree of(CommandSpec spec) {
    if (spec.root().userObject() instanceof CommandTree tree) {
      return tree;
    }
    throw new IllegalStateException("command `" + spec.root().qualifiedName()
        + "` cannot build command lines");
  }
}
