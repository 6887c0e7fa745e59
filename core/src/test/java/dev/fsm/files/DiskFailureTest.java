package dev.fsm.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the user is told when the disk, not fsm, failed. */
class DiskFailureTest {

  private static final Path STORE = Path.of("s");

  @Test
  void aFullDiskSaysToFreeSpaceAndRunAgainUnlessTheWorkWasDone() {
    IOException full = new IOException("No space left on device");
    assertThat(DiskFailure.advice(STORE, full)).contains("no space left on the disk holding s;"
        + " free some space there, then run the command again");
    assertThat(DiskFailure.afterTheWork(STORE, full))
        .contains("no space left on the disk holding s; free some space there");
  }

  @Test
  void operationNotPermittedIsNotTakenForAnotherOwner() {
    // EPERM: root is refused too, by an immutable file, which chown does not fix.
    FileSystemException eperm = new FileSystemException("s/index.clean.tmp", null,
        "Operation not permitted");
    assertThat(DiskFailure.advice(STORE, eperm).orElseThrow())
        .startsWith("operation not permitted on s/index.clean.tmp; ")
        .contains("chattr -i").doesNotContain("chown");
    AccessDeniedException eacces = new AccessDeniedException("s/journal");
    assertThat(DiskFailure.advice(STORE, eacces).orElseThrow())
        .startsWith("permission denied on s/journal; ").contains("chown -R");
  }

  @Test
  void permissionDeniedOnAFolderOfOnesOwnSaysToGiveWritePermissionBack(@TempDir Path dir)
      throws IOException {
    Path journal = Files.createDirectories(dir.resolve("s/journal"));
    assertThat(DiskFailure.advice(STORE, new AccessDeniedException(journal.toString()))
        .orElseThrow()).startsWith("permission denied on " + journal + "; it is yours but not"
            + " writable: give yourself write permission back (chmod -R u+w on the store folder)")
        .doesNotContain("chown");
    Path lock = dir.resolve("s/owner.lock");
    assertThat(DiskFailure.advice(STORE, new AccessDeniedException(lock.toString()))
        .orElseThrow()).as("a file not made yet: its folder's owner").contains("chmod -R u+w");
  }

  @Test
  void anythingElseIsNotTheDisk() {
    assertThat(DiskFailure.advice(STORE, new IOException("Broken pipe"))).isEmpty();
  }
}
