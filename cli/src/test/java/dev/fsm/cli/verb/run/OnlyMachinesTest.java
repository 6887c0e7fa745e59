package dev.fsm.cli.verb.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.cli.terminal.Style;
import dev.fsm.store.memory.InMemoryStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fsm run --machine M}: names checked against the store and the machines folder. */
class OnlyMachinesTest {

  private static final String ORDER = "machine: order\nstates:\n  a: {final: completed}\n";

  @TempDir Path dir;

  private final StringWriter err = new StringWriter();

  private void check(String... names) {
    OnlyMachines.check(List.of(names), new InMemoryStore(), dir, new PrintWriter(err, true),
        Style.forTerminal(false));
  }

  @Test
  void aMachineInTheFolderOrTheStorePasses() throws IOException {
    Files.writeString(dir.resolve("order.yaml"), ORDER);
    InMemoryStore store = new InMemoryStore();
    store.register("refund", "machine: refund\n", Instant.EPOCH);
    OnlyMachines.check(List.of("order", "refund"), store, dir, new PrintWriter(err, true),
        Style.forTerminal(false));
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void aMistypedNameIsRefusedWithTheNearestName() throws IOException {
    Files.writeString(dir.resolve("order.yaml"), ORDER);
    assertThatThrownBy(() -> check("ordr")).isInstanceOf(FsmException.class)
        .hasMessage("--machine ordr: no machine `ordr` in the store or in machines folder " + dir
            + "; did you mean `order`?");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void theFileOfThatNameThatCannotBeReadIsShownWithItsErrors() throws IOException {
    Files.writeString(dir.resolve("order.yaml"), ORDER);
    Path broken = Files.writeString(dir.resolve("broken.yaml"), "machine: broken\nstates: [\n");
    assertThatThrownBy(() -> check("broken")).isInstanceOf(FsmException.class)
        .hasMessage("--machine broken: machine file " + broken + " is not valid; fix the errors"
            + " above (`fsm validate " + broken + "` checks it again)");
    assertThat(err.toString()).startsWith(broken + ":2:9: error: the `[` opened here is never"
        + " closed");
  }

  @Test
  void aFileThatNamesNoMachineMayBeTheOneMeant() throws IOException {
    Files.writeString(dir.resolve("order.yaml"), ORDER);
    Path broken = Files.writeString(dir.resolve("x.yaml"), "states: [\n");
    assertThatThrownBy(() -> check("billing")).isInstanceOf(FsmException.class)
        .hasMessage("--machine billing: no machine `billing` in machines folder " + dir
            + "; it has: order; the file above is not valid and may define it (`fsm validate "
            + dir + "` checks the folder again)");
    assertThat(err.toString()).startsWith(broken + ":1:9: error:");
  }
}
