package dev.fsm.cli.common;

import dev.fsm.FsmException;
import dev.fsm.UsageException;
import dev.fsm.store.UncleanCloseException;
import dev.fsm.files.DiskFailure;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The exit codes of the SPEC and the one place that maps errors to them: 0 success, 1 understood
 * but refused or failed, 2 usage error. Users see the message, never a stack trace (unless they
 * ask with {@code -v}, for a bug).
 */
public final class ExitCodes {

  /** Success. */
  public static final int OK = 0;
  /** Understood but refused or failed: an invalid machine, an unknown task, a refused command. */
  public static final int FAILED = 1;
  /** The command line itself is wrong. */
  public static final int USAGE = 2;

  private ExitCodes() {}

  /** Prints an error raised while a verb ran and returns its exit code. */
  public static int report(Exception e, PrintWriter err, boolean verbose) {
    return report(e, err, verbose, null);
  }

  /**
   * Prints an error raised while a verb ran on {@code store} (null when unknown) and returns its
   * exit code: a failing disk (full, read-only, not ours, a mapped page lost) is the user's to
   * fix, so it gets one line, never an "internal error".
   */
  public static int report(Throwable e, PrintWriter err, boolean verbose, String store) {
    if (e instanceof UsageException) {
      err.println("fsm: " + e.getMessage());
      return USAGE;
    }
    if (e instanceof UncleanCloseException) {
      // Thrown only once the verb's work was done and durable: doing it again would repeat it.
      err.println("fsm: warning: " + e.getMessage());
      return OK;
    }
    if (e instanceof FsmException) {
      err.println("fsm: " + e.getMessage());
      return FAILED;
    }
    Optional<String> disk = DiskFailure.advice(Path.of(store == null ? "the store" : store), e);
    if (disk.isPresent()) {
      err.println("fsm: " + disk.get());
      return FAILED;
    }
    err.println("fsm: internal error: " + e);
    if (verbose) {
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      err.print(trace);
    } else {
      err.println("This is a bug in fsm; run again with -v for details and report it.");
    }
    return FAILED;
  }

  /** Prints errors raised while a verb runs, and picks their exit code. */
  public static final class OnExecution implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
      if (e instanceof ParameterException p) {
        cmd.getErr().println("fsm: " + p.getMessage());
        return USAGE;
      }
      return report(e, cmd.getErr(), verbose(parsed), store(parsed));
    }

    private static String store(ParseResult parsed) {
      return GlobalOptions.of(parsed.commandSpec()).store();
    }

    private static boolean verbose(ParseResult parsed) {
      for (ParseResult r = parsed; r != null; r = r.subcommand()) {
        if (r.hasMatchedOption("-v")) {
          return true;
        }
      }
      return false;
    }
  }

  /** Picocli starts some messages with "Error: ", which "fsm: " already says. */
  static String withoutErrorWord(String message) {
    return message != null && message.startsWith("Error: ") ? message.substring(7) : message;
  }

  /**
   * Prints a usage error in one line with a pointer to help, instead of the whole usage; an
   * unknown verb with the verb most likely meant. In the shell the pointers name the shell's
   * {@code help}, since there is no {@code fsm} to type there.
   */
  public static final class OnBadArguments implements IParameterExceptionHandler {

    private final boolean inShell;

    /** For the command line. */
    public OnBadArguments() {
      this(false);
    }

    /** For the command line, or for lines typed in {@code fsm shell} when {@code inShell}. */
    public OnBadArguments(boolean inShell) {
      this.inShell = inShell;
    }

    @Override
    public int handleParseException(ParameterException e, String[] args) {
      CommandLine cmd = e.getCommandLine();
      PrintWriter err = cmd.getErr();
      String verbPath = cmd.getCommandSpec().qualifiedName().replaceFirst("^\\S+\\s*", "");
      Optional<String> verb = UnknownVerb.of(e);
      if (verb.isPresent()) {
        List<String> shellWords = inShell && cmd.getParent() == null
            ? List.of("exit", "quit") : List.of();
        Optional<String> meant = UnknownVerb.meant(verb.get(),
            UnknownVerb.verbs(cmd, shellWords));
        err.println("fsm: unknown verb `" + verb.get() + "`"
            + (verbPath.isEmpty() ? "" : " of `" + verbPath + "`")
            + meant.map(m -> "; did you mean `" + m + "`?").orElse(""));
        err.println(inShell ? "Type `help" + (verbPath.isEmpty() ? "" : " " + verbPath)
            + "` for the verbs." : "Try `" + cmd.getCommandSpec().qualifiedName()
            + " --help` for the verbs.");
        return USAGE;
      }
      err.println("fsm: " + withoutErrorWord(e.getMessage()));
      CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
      if (!inShell) {
        err.println("Try `" + cmd.getCommandSpec().qualifiedName() + " --help` for usage.");
      } else {
        err.println(verbPath.isEmpty() ? "Type `help` for the verbs."
            : "Type `help " + verbPath + "` for usage.");
      }
      return USAGE;
    }
  }
}
