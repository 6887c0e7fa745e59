package dev.fsm.cli;

import dev.fsm.FsmException;
import java.io.PrintWriter;
import java.io.StringWriter;
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
  static int report(Exception e, PrintWriter err, boolean verbose) {
    if (e instanceof FsmException) {
      err.println("fsm: " + e.getMessage());
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
  static final class OnExecution implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
      if (e instanceof ParameterException p) {
        cmd.getErr().println("fsm: " + p.getMessage());
        return USAGE;
      }
      return report(e, cmd.getErr(), verbose(parsed));
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
  static final class OnBadArguments implements IParameterExceptionHandler {
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
