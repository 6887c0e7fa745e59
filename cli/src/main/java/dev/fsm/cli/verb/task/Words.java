package dev.fsm.cli.verb.task;

import dev.fsm.diagnostic.DidYouMean;
import dev.fsm.task.Command;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.TaskStatus;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/** Reads the command and status words users type; a wrong one is a usage error listing all. */
final class Words {

  private Words() {}

  /**
   * The command a user typed.
   *
   * @throws ParameterException naming the commands, with a suggestion when one is close
   */
  static Command command(CommandLine cmd, String word) {
    return Command.parse(word).orElseThrow(() -> new ParameterException(cmd,
        unknown("command", word, Command.words())));
  }

  /** Converts {@code --status} values. */
  static final class StatusConverter implements ITypeConverter<TaskStatus> {
    @Override
    public TaskStatus convert(String word) {
      return TaskStatus.parse(word).orElseThrow(() -> new TypeConversionException(unknown(
          "status", word, Arrays.stream(TaskStatus.values()).map(TaskStatus::word).toList())));
    }
  }

  /** Reads a status as users see it, {@code waiting} among them. */
  static final class ShownStatusConverter implements ITypeConverter<ShownStatus> {
    @Override
    public ShownStatus convert(String word) {
      return ShownStatus.parse(word).orElseThrow(() -> new TypeConversionException(unknown(
          "status", word, Arrays.stream(ShownStatus.values()).map(ShownStatus::word).toList())));
    }
  }

  static String unknown(String what, String word, List<String> known) {
    String hint = DidYouMean.hint(word, known);
    return "unknown " + what + " `" + word + "`" + (hint == null ? "" : "; " + hint) + " (one of: "
        + String.join(", ", known) + ")";
  }
}
