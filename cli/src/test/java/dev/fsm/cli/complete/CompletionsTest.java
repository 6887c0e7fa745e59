package dev.fsm.cli.complete;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.cli.Fsm;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The completion engine against the real command model and a fixed set of store values. */
class CompletionsTest {

  private static final Values STORE = new Values() {
    @Override
    public List<String> taskIds(String prefix) {
      return List.of("alpha-1", "alpha-2", "beta-1").stream()
          .filter(id -> id.startsWith(prefix)).toList();
    }

    @Override
    public List<String> machines() {
      return List.of("approval", "order");
    }

    @Override
    public List<String> states(String machine) {
      return "order".equals(machine) ? List.of("pay", "ship") : List.of("pay", "review", "ship");
    }

    @Override
    public List<String> events(String taskId) {
      return taskId.equals("alpha-1") ? List.of("approve", "reject") : List.of();
    }

    @Override
    public List<String> taskStates(String taskId) {
      return taskId.equals("beta-1") ? List.of("pay", "ship") : List.of();
    }
  };

  private final Completions completions = new Completions(Fsm.commandLine(
      new PrintWriter(Writer.nullWriter()), new PrintWriter(Writer.nullWriter()), Map.of())
      .getCommandSpec(), typed -> STORE);

  private List<String> complete(String... words) {
    List<String> all = List.of(words);
    return completions.complete(all.subList(0, all.size() - 1), all.get(all.size() - 1))
        .values().stream().map(Suggestion::value).toList();
  }

  @Test
  void verbsAndNotTheHiddenOne() {
    assertThat(complete("s")).containsExactly("start", "send", "signal", "show", "stats",
        "shell", "store");
    assertThat(complete("")).contains("watch", "tail", "completion").doesNotContain("__complete");
    assertThat(complete("help", "wa")).containsExactly("watch");
  }

  @Test
  void optionsOfTheVerbIncludingGlobalOnes() {
    assertThat(complete("ls", "--st")).containsExactly("--state", "--status", "--store");
    assertThat(complete("watch", "--i")).containsExactly("--interval");
  }

  @Test
  void taskIdsAfterAnOptionToo() {
    assertThat(complete("show", "al")).containsExactly("alpha-1", "alpha-2");
    assertThat(complete("history", "--output", "json", "b")).containsExactly("beta-1");
    assertThat(complete("render", "--task", "a")).containsExactly("alpha-1", "alpha-2");
  }

  @Test
  void machinesStatesStatusesCommandsAndEvents() {
    assertThat(complete("start", "")).containsExactly("approval", "order");
    assertThat(complete("ls", "--machine", "order", "--state", "")).containsExactly("pay",
        "ship");
    assertThat(complete("watch", "--status=f")).containsExactly("--status=fault",
        "--status=failed");
    assertThat(complete("send", "alpha-1", "p")).containsExactly("pause");
    assertThat(complete("send", "--machine", "order", "k")).containsExactly("kill");
    assertThat(complete("send", "alpha-1", "r")).containsExactly("run", "resume", "release",
        "redrive");
    assertThat(complete("send", "beta-1", "redrive", "--to", "")).containsExactly("pay", "ship");
    assertThat(complete("send", "--machine", "order", "--status", "failed", "redrive", "--to",
        "s")).containsExactly("ship");
    assertThat(complete("signal", "alpha-1", "")).containsExactly("approve", "reject");
    assertThat(complete("--output", "")).containsExactly("text", "json");
    assertThat(complete("completion", "")).containsExactly("bash", "zsh");
  }

  @Test
  void newIdsAndFilesAreNotGuessed() {
    assertThat(complete("start", "order", "--id", "a")).isEmpty();
    assertThat(completions.complete(List.of("validate"), "").files()).isTrue();
  }

  @Test
  void bashSplitWordsAreJoinedAgain() {
    assertThat(BashWords.merge(List.of("ls", "--status", "=", "ru")))
        .containsExactly("ls", "--status=ru");
    assertThat(BashWords.endsSplitAtEquals(List.of("ls", "--status", "=", "ru"))).isTrue();
    assertThat(BashWords.endsSplitAtEquals(List.of("ls", "al"))).isFalse();
  }
}
