package dev.fsm.yaml;

import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Deque;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.scanner.ScannerImpl;
import org.yaml.snakeyaml.tokens.Token;

/**
 * Finds the flow bracket (a square or curly one) that a file leaves open at its end. SnakeYAML's
 * parser, when the file ends right after such a bracket, reports the end of the file, not the
 * bracket; its scanner's tokens still say where each bracket opened.
 */
final class UnclosedBracket {

  private UnclosedBracket() {}

  /** Where the innermost flow bracket that {@code text} leaves open is, or null. */
  static Mark innermost(String text) {
    Deque<Mark> open = new ArrayDeque<>();
    try {
      ScannerImpl scanner = new ScannerImpl(new StreamReader(new StringReader(text)),
          new LoaderOptions());
      while (!scanner.checkToken(Token.ID.StreamEnd)) {
        Token token = scanner.getToken();
        switch (token.getTokenId()) {
          case FlowMappingStart, FlowSequenceStart -> open.push(token.getStartMark());
          case FlowMappingEnd, FlowSequenceEnd -> open.poll();
          default -> { }
        }
      }
    } catch (YAMLException e) {
      // A text the scanner cannot read has a mistake that is reported instead.
      return null;
    }
    return open.peek();
  }
}
