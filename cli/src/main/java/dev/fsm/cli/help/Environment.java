package dev.fsm.cli.help;

import java.util.List;

/** The environment variables fsm and its launcher read, for {@code fsm --help} and fsm(1). */
public final class Environment {

  /** One variable and what it does. */
  public record Variable(String name, String meaning) {}

  /** Every variable, those of fsm itself first, then those of the {@code bin/fsm} launcher. */
  public static final List<Variable> VARIABLES = List.of(
      new Variable("FSM_STORE", "The store when --store is not given (default: .fsm/ in the"
          + " current folder)."),
      new Variable("FSM_MACHINES", "The machines folder when --machines is not given (default:"
          + " machines/)."),
      new Variable("NO_COLOR", "Set and not empty: no colours, as with --no-color."),
      new Variable("COLUMNS", "The width tables fit on a terminal (default: the terminal's)."),
      new Variable("LINES", "The height `fsm watch` fits (default: 20 rows of tasks)."),
      new Variable("PGUSER, PGPASSWORD", "User and password for a postgresql:// store whose URL"
          + " names none (default user: the login name)."),
      new Variable("XDG_STATE_HOME", "Where `fsm shell` keeps its history, in fsm/history"
          + " (default: ~/.local/state)."),
      new Variable("XDG_RUNTIME_DIR", "Where runners put the control sockets of stores whose"
          + " folder path is too long for one (default: /tmp/fsm-USER)."),
      new Variable("FSM_JAVA", "bin/fsm: the java program to run fsm with. Unset, it takes the"
          + " newest JDK 25+ in JAVA_HOME or /usr/lib/jvm, else JAVA_HOME's java, else the one"
          + " on PATH; `fsm version` says which and why."),
      new Variable("JAVA_HOME", "bin/fsm: a JDK to consider, as FSM_JAVA says."),
      new Variable("FSM_JAR", "bin/fsm: the jar to run (default: cli/target/fsm.jar beside the"
          + " script's folder)."),
      new Variable("FSM_NO_CACHE", "bin/fsm: set to 1 to run without the start-up cache (a"
          + " class-data archive or AOT cache of the jar)."),
      new Variable("FSM_HEAP", "bin/fsm: the JVM's heap limit, e.g. 1g (default: 256m, and"
          + " 128m for run and bench); a command that needs more says so."),
      new Variable("XDG_CACHE_HOME", "bin/fsm: where the start-up cache is kept, in fsm/"
          + " (default: ~/.cache)."));

  private Environment() {}
}
