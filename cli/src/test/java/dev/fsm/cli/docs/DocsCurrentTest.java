package dev.fsm.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** completions/ and man/ in the repository are exactly what the command model generates. */
class DocsCurrentTest {

  private static final String FIX = "; regenerate them with `mvn -q -B -Pdocs -DskipTests"
      + " package` (or `java -cp cli/target/fsm.jar dev.fsm.cli.docs.Docs .` at the root) and"
      + " commit the result";

  @Test
  void committedCompletionsAndManPagesAreCurrent() throws IOException {
    Path repo = Path.of(System.getProperty("fsm.repo", "..")).toAbsolutePath().normalize();
    Map<String, String> expected = Docs.files();
    TreeSet<String> present = new TreeSet<>();
    for (String folder : new String[] {"completions", "man"}) {
      try (Stream<Path> files = Files.list(repo.resolve(folder))) {
        files.forEach(f -> present.add(repo.relativize(f).toString()));
      }
    }
    assertThat(present).as("files in completions/ and man/" + FIX)
        .isEqualTo(new TreeSet<>(expected.keySet()));
    for (Map.Entry<String, String> file : expected.entrySet()) {
      assertThat(Files.readString(repo.resolve(file.getKey()), StandardCharsets.UTF_8))
          .as(file.getKey() + " is stale" + FIX).isEqualTo(file.getValue());
    }
  }

  @Test
  void everyVisibleVerbHasAManPageAndIsInTheScripts() {
    Map<String, String> files = Docs.files();
    for (String verb : new String[] {"shell", "watch", "tail", "ls", "show", "send", "signal",
        "completion", "store-check"}) {
      assertThat(files).containsKey("man/fsm-" + verb + ".1");
    }
    assertThat(files.get("completions/fsm.bash")).contains(" watch tail shell ")
        .doesNotContain("__complete\" --").contains("complete -o default -F _fsm fsm");
  }
}
