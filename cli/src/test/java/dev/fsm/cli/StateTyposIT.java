package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A state no version of the machine has is a typo: refused once, never an empty answer. */
class StateTyposIT {

  @TempDir Path dir;

  @Test
  void aMistypedStateIsRefusedByEveryVerbThatFiltersByState() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/job.yaml"), """
        machine: job
        states:
          hold:
            on: {go: done}
          done: {final: completed}
        """);
    StoreCommands fsm = new StoreCommands(dir, "store");
    fsm.ok("start", "job", "--id", "j1");
    List<String[]> verbs = List.of(
        new String[] {"send", "--machine", "job", "--state", "hodl", "kill"},
        new String[] {"watch", "-n", "1", "--state", "hodl"},
        new String[] {"tail", "--state", "hodl"},
        new String[] {"errors", "--machine", "job", "--state", "hodl"},
        new String[] {"ls", "--state", "hodl"},
        new String[] {"send", "--machine", "job", "redrive", "--to", "hodl"});
    for (String[] verb : verbs) {
      FsmJar.Result r = fsm.run(verb);
      assertThat(r.exit()).as(String.join(" ", verb)).isEqualTo(1);
      assertThat(r.err()).as(String.join(" ", verb))
          .contains("no state `hodl`").contains("did you mean `hold`?");
    }
    assertThat(fsm.ok("ls", "-q").out()).as("nothing killed").contains("j1");
    assertThat(fsm.ok("show", "j1").out()).contains("waiting");
  }
}
