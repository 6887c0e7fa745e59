package dev.fsm.cli.complete;

import dev.fsm.cli.common.CommandTree;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.ReadsEveryVerb;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fsm __complete -- WORD...}: the completion scripts' call back into fsm, for the values
 * only the store knows (task ids, machines, states, events). Prints one candidate a line.
 */
@Command(name = "__complete", hidden = true,
    header = "Print what may complete the last word of a command line (for shell scripts).")
public final class Complete implements Callable<Integer>, ReadsEveryVerb {

  @Parameters(paramLabel = "WORD", description = "The words after `fsm`, the last one being"
      + " completed (possibly empty). Put `--` before them.")
  List<String> words = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    List<String> merged = BashWords.merge(words);
    String word = merged.isEmpty() ? "" : merged.get(merged.size() - 1);
    List<String> typed = merged.isEmpty() ? List.of() : merged.subList(0, merged.size() - 1);
    // bash splits `--status=ru` at `=`, and completes only the part after it.
    int cut = BashWords.endsSplitAtEquals(words) ? word.indexOf('=') + 1 : 0;
    Completions completions = new Completions(spec.parent(),
        typedOptions -> StoreValues.of(CommandTree.of(spec), GlobalOptions.of(spec).environment(),
            typedOptions));
    PrintWriter out = spec.commandLine().getOut();
    for (Suggestion s : completions.complete(typed, word).values()) {
      out.println(s.value().substring(cut));
    }
    return ExitCodes.OK;
  }
}
