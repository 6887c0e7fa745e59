package dev.fsm.cli.verb.task;

import dev.fsm.FsmException;
import dev.fsm.UsageException;
import dev.fsm.engine.Contexts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** A {@code --context JSON|@FILE} value: a JSON object given inline or read from a file. */
final class ContextArgument {

  /** The byte order mark, as a character. */
  static final String BOM = "\uFEFF";

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
      try {
        return Contexts.parse(value, "--context");
      } catch (FsmException e) {
        // The command line itself is wrong (exit 2), as with any malformed option value.
        throw new UsageException(e.getMessage());
      }
    }
    return Contexts.parse(text(value), "--context " + value);
  }

  /**
   * The file's text. Read in one bounded gulp rather than by its size, which is 0 for devices
   * and pipes such as {@code /dev/zero} or {@code @/dev/stdin}.
   */
  private static String text(String value) {
    Path file = Path.of(value.substring(1));
    if (Files.isDirectory(file)) {
      throw new FsmException("--context " + value + ": " + file + " is a folder; give @FILE"
          + " naming a file of JSON");
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(Contexts.MAX_TEXT_BYTES + 1);
    } catch (NoSuchFileException e) {
      throw new FsmException("--context " + value + ": no such file " + file
          + "; give JSON inline, or @FILE naming a file of JSON");
    } catch (AccessDeniedException e) {
      throw new FsmException("--context " + value + ": permission denied reading " + file);
    } catch (IOException e) {
      throw new FsmException("--context " + value + ": cannot read " + file + ": "
          + e.getMessage());
    }
    if (bytes.length > Contexts.MAX_TEXT_BYTES) {
      throw new FsmException("--context " + value + ": a task's context may hold at most 1 MiB,"
          + " and this file holds more than " + Contexts.MAX_TEXT_BYTES / Contexts.MAX_BYTES
          + " MiB; nothing was read past that");
    }
    try {
      String text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes))
          .toString();
      // Some editors start UTF-8 files with a byte order mark; JSON readers may ignore it.
      return text.startsWith(BOM) ? text.substring(1) : text;
    } catch (CharacterCodingException e) {
      throw new FsmException("--context " + value + ": " + file + " is not UTF-8 text; JSON"
          + " files are UTF-8");
    }
  }
}
