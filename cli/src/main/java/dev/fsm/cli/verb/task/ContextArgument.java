package dev.fsm.cli.verb.task;

import dev.fsm.FsmException;
import dev.fsm.engine.Contexts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** A {@code --context JSON|@FILE} value: a JSON object given inline or read from a file. */
final class ContextArgument {

  private ContextArgument() {}

  /**
   * The context as compact JSON, or null when none was given.
   *
   * @throws FsmException when the file cannot be read or its text is not a JSON object
   */
  static String read(String value) {
    if (value == null) {
      return null;
    }
    if (!value.startsWith("@")) {
      return Contexts.parse(value, "--context");
    }
    Path file = Path.of(value.substring(1));
    String text;
    try {
      if (Files.size(file) > Contexts.MAX_BYTES) {
        throw new FsmException("--context " + value + ": the file is larger than a task's"
            + " context may be (1 MiB)");
      }
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new FsmException("--context " + value + ": no such file " + file
          + "; give JSON inline, or @FILE naming a file of JSON");
    } catch (IOException e) {
      throw new FsmException("--context " + value + ": cannot read " + file + ": " + e);
    }
    return Contexts.parse(text, "--context " + value);
  }
}
