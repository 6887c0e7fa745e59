package dev.fsm.cli.help;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.cli.Fsm;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** Every verb's --help: at least one example, and the global options once, in fsm --help. */
class HelpLayoutTest {

  /** Words of the global options' descriptions, which only fsm --help may show. */
  private static final List<String> GLOBAL_DESCRIPTIONS = List.of("Where tasks are stored",
      "Folder of machine files", "Print data as text", "No colours", "Say more;",
      "Show this help message", "Print version information");

  @Test
  void everyVerbHasAnExampleAndOneLineForTheGlobalOptions() {
    List<List<String>> verbs = new ArrayList<>();
    PrintWriter none = new PrintWriter(Writer.nullWriter());
    collect(Fsm.commandLine(none, none, Map.of()).getCommandSpec(), List.of(), verbs);
    assertThat(verbs).extracting(v -> String.join(" ", v))
        .contains("ls", "init", "version", "store check", "help");
    for (List<String> verb : verbs) {
      String help = help(verb);
      String name = "fsm " + String.join(" ", verb);
      assertThat(help).as(name).contains("\nExamples:\n  ")
          .contains("\nGlobal options --store, --machines, --output, --no-color, -v, -h, -V work"
              + " with\nevery verb: see `fsm --help`.\n");
      String examples = help.substring(help.indexOf("\nExamples:\n") + 11);
      assertThat(examples.lines()).as(name).allSatisfy(l -> assertThat(l)
          .matches("  (fsm |# |source ).*"));
      GLOBAL_DESCRIPTIONS.forEach(d -> assertThat(help).as(name).doesNotContain(d));
      assertThat(help).as(name).doesNotContain("[--store=").doesNotContain("[-hV]");
    }
  }

  @Test
  void theRootDescribesTheGlobalOptionsTheEnvironmentAndTheExitStatus() {
    String help = help(List.of());
    GLOBAL_DESCRIPTIONS.forEach(d -> assertThat(help).contains(d));
    assertThat(help).contains("\nExamples:\n  fsm init && fsm validate\n")
        .contains("\nEnvironment:\n  FSM_STORE ").contains("  NO_COLOR ")
        .contains("  FSM_NO_CACHE ").contains("\nExit status: " + HelpLayout.EXIT_STATUS);
  }

  private static String help(List<String> verb) {
    StringWriter out = new StringWriter();
    List<String> args = new ArrayList<>(verb);
    args.add("--help");
    int status = Fsm.run(new PrintWriter(out), new PrintWriter(Writer.nullWriter()), Map.of(),
        args.toArray(String[]::new));
    assertThat(status).as("fsm %s --help", verb).isZero();
    return out.toString();
  }

  private static void collect(CommandSpec spec, List<String> path, List<List<String>> verbs) {
    for (CommandLine sub : spec.subcommands().values()) {
      CommandSpec s = sub.getCommandSpec();
      if (s.usageMessage().hidden()) {
        continue;
      }
      List<String> verb = new ArrayList<>(path);
      verb.add(s.name());
      verbs.add(verb);
      collect(s, verb, verbs);
    }
  }
}
