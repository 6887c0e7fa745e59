package dev.fsm.store.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An export file appears whole or not at all, owner-only, and replaces a file only if asked. */
class ExportFileTest {

  @TempDir Path dir;

  @Test
  void aCommittedExportHasItsNameAndNoPartialFileIsLeft() throws IOException {
    Path file = dir.resolve("dump.jsonl");
    try (ExportFile out = ExportFile.create(file, false)) {
      out.writer().write("whole\n");
      assertThat(file).doesNotExist();
      out.commit();
    }
    assertThat(Files.readString(file)).isEqualTo("whole\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(names()).containsExactly("dump.jsonl");
  }

  @Test
  void anExportThatFailsLeavesNothingAndAnOldFileAsItWas() throws IOException {
    Path file = dir.resolve("dump.jsonl");
    Files.writeString(file, "old\n");
    assertThatThrownBy(() -> ExportFile.create(file, false)).isInstanceOf(FsmException.class)
        .hasMessage(file + " exists already; name another file, or pass --force to replace it");
    try (ExportFile out = ExportFile.create(file, true)) {
      out.writer().write("half");
      out.writer().flush();
    }
    assertThat(Files.readString(file)).isEqualTo("old\n");
    assertThat(names()).containsExactly("dump.jsonl");
    try (ExportFile out = ExportFile.create(file, true)) {
      out.writer().write("new\n");
      out.commit();
    }
    assertThat(Files.readString(file)).isEqualTo("new\n");
  }

  @Test
  void aFolderOrAMissingFolderIsRefused() {
    assertThatThrownBy(() -> ExportFile.create(dir, true)).isInstanceOf(FsmException.class)
        .hasMessage(dir + " is a folder; name a file in it, such as "
            + dir.resolve("fsm-export.jsonl"));
    Path nowhere = dir.resolve("no/such/dump.jsonl");
    assertThatThrownBy(() -> ExportFile.create(nowhere, false))
        .isInstanceOf(FsmException.class).hasMessage("cannot write " + nowhere + ": folder "
            + nowhere.getParent() + " does not exist; create it first or name another file");
  }

  private Stream<String> names() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).toList().stream();
    }
  }
}
