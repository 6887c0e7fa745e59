package dev.fsm.cli.common;

import dev.fsm.FsmException;
import dev.fsm.UsageException;
import dev.fsm.files.DiskFailure;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
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

  /** Prints a usage error in one line with a pointer to help, instead of the whole usage. */
  public static final class OnBadArguments implements IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException e, String[] args) {
      CommandLine cmd = e.getCommandLine();
      PrintWriter err = cmd.getErr();
      err.println("fsm: " + withoutErrorWord(e.getMessage()));
      CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
      err.println("Try `" + cmd.getCommandSpec().qualifiedName() + " --help` for usage.");
      return USAGE;
    }
  }
}
