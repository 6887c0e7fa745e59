package dev.fsm.cli.shell;

import dev.fsm.cli.complete.Completions;
import dev.fsm.cli.complete.Suggestion;
import dev.fsm.cli.complete.Suggestions;
import java.util.List;
import org.jline.builtins.Completers.FileNameCompleter;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/** JLine's view of fsm's completions; file names are left to JLine's own file completer. */
final class ShellCompleter implements Completer {

  private final Completions completions;
  private final Completer files = new FileNameCompleter();

  ShellCompleter(Completions completions) {
    this.completions = completions;
  }

  @Override
  public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
    List<String> typed = line.words().subList(0, line.wordIndex());
    String word = line.word().substring(0, line.wordCursor());
    Suggestions found = completions.complete(typed, word);
    for (Suggestion s : found.values()) {
      candidates.add(new Candidate(s.value(), s.value(), null,
          s.description().isEmpty() ? null : s.description(), null, null, true));
    }
    if (found.files()) {
      files.complete(reader, line, candidates);
    }
  }
}
