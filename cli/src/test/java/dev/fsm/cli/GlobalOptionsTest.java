package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.cli.common.CommandTree;
import dev.fsm.cli.common.GlobalOptions;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

class GlobalOptionsTest {

  private static final PrintWriter NONE = new PrintWriter(Writer.nullWriter());

  /** The spec of the innermost verb of {@code args}, parsed by a fresh command tree. */
  private static CommandSpec verb(Map<String, String> env, String... args) {
    CommandLine cmd = Fsm.commandLine(NONE, NONE, env);
    ParseResult r = cmd.parseArgs(args);
    while (r.hasSubcommand()) {
      r = r.subcommand();
    }
    return r.commandSpec();
  }

  @Test
  void verbsReadTheOptionsGivenBeforeTheirName() {
    GlobalOptions global = GlobalOptions.of(verb(Map.of(), "--store", "/a", "--output", "json",
        "ls"));
    assertThat(global.store()).isEqualTo("/a");
    assertThat(global.json()).isTrue();
  }

  @Test
  void verbsReadTheOptionsGivenAfterTheirName() {
    GlobalOptions global = GlobalOptions.of(verb(Map.of(), "show", "t1", "--machines", "m",
        "-v"));
    assertThat(global.machines()).isEqualTo(Path.of("m"));
    assertThat(global.verbose()).isTrue();
  }

  @Test
  void nestedVerbsReadTheRootsOptions() {
    CommandSpec check = verb(Map.of(), "--store", "/a", "store", "check", "--output", "json");
    assertThat(check.name()).isEqualTo("check");
    assertThat(GlobalOptions.of(check).store()).isEqualTo("/a");
    assertThat(GlobalOptions.of(check).json()).isTrue();
  }

  @Test
  void aStoreNamedLikeAVerbIsAFolderNotTheVerb() {
    CommandSpec ls = verb(Map.of(), "--store", "store", "ls");
    assertThat(ls.name()).isEqualTo("ls");
    assertThat(GlobalOptions.of(ls).store()).isEqualTo("store");
    CommandSpec check = verb(Map.of(), "--store", "run", "store", "check");
    assertThat(check.name()).isEqualTo("check");
    assertThat(GlobalOptions.of(check).store()).isEqualTo("run");
  }

  @Test
  void eachCommandLineHasItsOwnOptions() {
    // The shell runs many command lines in one process: one line's options must not reach the next.
    CommandSpec first = verb(Map.of(), "ls", "--store", "/a", "--output", "json", "--no-color");
    CommandSpec second = verb(Map.of("FSM_STORE", "/b"), "ls");
    assertThat(GlobalOptions.of(first).store()).isEqualTo("/a");
    assertThat(GlobalOptions.of(second).store()).isEqualTo("/b");
    assertThat(GlobalOptions.of(second).json()).isFalse();
    assertThat(GlobalOptions.of(second).colorAllowed()).isTrue();
    assertThat(GlobalOptions.of(second)).isNotSameAs(GlobalOptions.of(first));
  }

  @Test
  void theRootBuildsFreshTreesForTheShell() {
    CommandSpec ls = verb(Map.of(), "ls");
    CommandLine again = CommandTree.of(ls).build(NONE, NONE, Map.of("FSM_STORE", "/c"));
    assertThat(GlobalOptions.of(again.getCommandSpec()).store()).isEqualTo("/c");
    assertThat(GlobalOptions.of(again.getCommandSpec())).isNotSameAs(GlobalOptions.of(ls));
  }
}
