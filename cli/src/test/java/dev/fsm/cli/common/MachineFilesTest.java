package dev.fsm.cli.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.cli.terminal.Style;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a machine named on the command line is found in the machines folder, or refused. */
class MachineFilesTest {

  @TempDir Path dir;

  private final StringWriter err = new StringWriter();

  private MachineFiles.Checked read(String name) {
    return MachineFiles.read(name, dir.resolve("machines"), new PrintWriter(err, true),
        Style.forTerminal(false));
  }

  private void write(String file, String yaml) throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines").resolve(file), yaml);
  }

  @Test
  void aMachineIsFoundByItsName() throws IOException {
    write("order.yaml", "machine: order\nstates:\n  done: {final: completed}\n");
    assertThat(read("order").machine().name()).isEqualTo("order");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void aFileNamedByPathThatIsNotSmallUtf8TextIsRefusedAsValidateRefusesIt() throws IOException {
    Path binary = Files.write(dir.resolve("bin.yaml"), new byte[] {0x7f, 'E', 'L', 'F', (byte) 0xff,
        (byte) 0xfe, 0});
    assertThatThrownBy(() -> read(binary.toString()))
        .isInstanceOf(MachineFiles.NotValidException.class);
    assertThat(err.toString()).isEqualTo(binary + ":1:1: error: file is not UTF-8 text (a"
        + " machine file is a YAML text file in UTF-8)\n");
    err.getBuffer().setLength(0);
    // A device that never ends is read no further than the limit.
    assertThatThrownBy(() -> read("/dev/zero")).isInstanceOf(MachineFiles.NotValidException.class);
    assertThat(err.toString()).isEqualTo("/dev/zero:1:1: error: file is larger than 1 MiB;"
        + " machine files are limited to 1 MiB\n");
  }

  @Test
  void aFileNamedForTheMachineThatDoesNotParseIsInvalidNotMissing() throws IOException {
    write("order.yaml", "machine: order\nstates: {\n");
    write("ma.yaml", "machine: ma\nstates:\n  done: {final: completed}\n");
    String file = dir.resolve("machines/order.yaml").toString();
    assertThatThrownBy(() -> read("order")).isInstanceOf(FsmException.class)
        .hasMessage("machine file " + file + " is not valid; fix the errors above (`fsm"
            + " validate " + file + "` checks it again)");
    assertThat(err.toString()).isEqualTo(file + ":2:9: error: the `{` opened here is never"
        + " closed (close it with `}` on the same line, or write its items as indented lines)\n");
  }

  @Test
  void aFileThatDoesNotParseIsShownWhenNoFileDefinesTheMachine() throws IOException {
    write("orders.yaml", "machine: [\n");
    Path folder = dir.resolve("machines");
    assertThatThrownBy(() -> read("order")).isInstanceOf(FsmException.class)
        .hasMessage("no machine `order` in machines folder " + folder + "; the file above is not"
            + " valid and may define it (`fsm validate " + folder + "` checks the folder"
            + " again)");
    assertThat(err.toString()).isEqualTo(folder.resolve("orders.yaml") + ":1:10: error: the `[`"
        + " opened here is never closed (close it with `]` on the same line, or write its items"
        + " as indented lines)\n");
  }

  @Test
  void aMissingMachineIsRefusedWithTheMachinesThereAre() throws IOException {
    write("ma.yaml", "machine: ma\nstates:\n  done: {final: completed}\n");
    assertThatThrownBy(() -> read("order")).isInstanceOf(FsmException.class)
        .hasMessage("no machine `order` in machines folder " + dir.resolve("machines")
            + "; it has: ma");
    assertThat(err.toString()).isEmpty();
  }
}
