package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.complete.Complete;
import dev.fsm.cli.verb.store.Store;
import dev.fsm.cli.verb.task.Ls;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A command line builds only the verb it names, and prints exactly what it printed with every
 * verb built, help, mistakes and unusual spellings included.
 */
class OneVerbTest {

  @TempDir Path dir;

  private static List<Class<?>> picked(String... args) {
    CommandSpec root = new CommandLine(new Fsm(new GlobalOptions(Map.of(),
        new PrintWriter(Writer.nullWriter())))).getCommandSpec();
    return OneVerb.of(args).pick(root);
  }

  @Test
  void findsTheVerbAfterTheRootsOptionsAndTheirValues() {
    assertThat(picked("ls")).containsExactly(Ls.class);
    assertThat(picked("--store", "ls", "--machines", "m", "-v", "ls", "--limit", "2"))
        .containsExactly(Ls.class);
    assertThat(picked("--store=x", "--output=json", "--no-color", "store", "check"))
        .containsExactly(Store.class);
  }

  @Test
  void buildsEveryVerbWhenInDoubtOrWhenTheVerbReadsThemAll() {
    assertThat(picked()).isEqualTo(Fsm.VERBS);
    assertThat(picked("--help", "ls")).isEqualTo(Fsm.VERBS);
    assertThat(picked("-V")).isEqualTo(Fsm.VERBS);
    assertThat(picked("help", "ls")).isEqualTo(Fsm.VERBS);
    assertThat(picked("lss")).isEqualTo(Fsm.VERBS);
    assertThat(picked("--store")).isEqualTo(Fsm.VERBS);
    assertThat(picked("-vh", "ls")).isEqualTo(Fsm.VERBS);
    assertThat(picked("--", "ls")).isEqualTo(Fsm.VERBS);
    assertThat(picked("--verbose=true", "ls")).isEqualTo(Fsm.VERBS);
    assertThat(picked("__complete", "ls", "--st")).isEqualTo(Fsm.VERBS);
    assertThat(Fsm.VERBS).contains(Complete.class);
  }

  @Test
  void printsWhatTheWholeTreePrints() {
    String store = dir.resolve("none").toString();
    List<String[]> lines = List.of(
        new String[] {"ls", "--limit", "0"},
        new String[] {"ls", "--bogus"},
        new String[] {"ls", "--help"},
        new String[] {"--store", store, "ls", "--limt", "2"},
        new String[] {"--store", store, "show", "nope"},
        new String[] {"store", "chek"},
        new String[] {"store", "--help"},
        new String[] {"lss"},
        new String[] {"help", "ls"},
        new String[] {"--help"},
        new String[] {"start"},
        new String[] {"-v", "send", "x"},
        new String[] {"--output", "yaml", "ls"},
        new String[] {"version"},
        new String[] {"--store", store, "history", "ls"},
        new String[] {"--store", store, "signal", "start", "go"},
        new String[] {"--store", store, "start", "ls", "--id", "help"},
        new String[] {"__complete", "l"});
    for (String[] line : lines) {
      assertThat(run(OneVerb.of(line), line)).as(String.join(" ", line))
          .isEqualTo(run(OneVerb.ALL, line));
    }
  }

  private String run(OneVerb verbs, String[] args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Fsm.commandLine(new PrintWriter(out, true), new PrintWriter(err, true),
        Map.of("HOME", dir.toString()), verbs).execute(args);
    return exit + "\n" + out + "\n" + err;
  }
}
