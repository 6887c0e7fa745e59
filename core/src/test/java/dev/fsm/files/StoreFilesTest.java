package dev.fsm.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Store files never written through links, owner-only modes, and disk failures in one line. */
class StoreFilesTest {

  @TempDir Path dir;

  @Test
  void openingALinkIsRefusedAndItsTargetLeftAlone() throws IOException {
    Path victim = Files.writeString(dir.resolve("victim"), "precious");
    Path link = Files.createSymbolicLink(dir.resolve("owner.lock"), victim);

    assertThatThrownBy(() -> StoreFiles.open(link, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING))
        .isInstanceOf(FsmException.class)
        .hasMessage(link + " is a symbolic link (pointing to " + victim + "); fsm never writes"
            + " store files through links, since whoever planted it could make fsm overwrite the"
            + " file it points to: remove it (rm " + link + ") and check who can write to "
            + dir);
    assertThat(Files.readString(victim)).isEqualTo("precious");
  }

  @Test
  void aFreshFileReplacesALinkLeftInItsPlace() throws IOException {
    Path victim = Files.writeString(dir.resolve("victim"), "precious");
    Path temp = Files.createSymbolicLink(dir.resolve("index.clean.tmp"), victim);

    try (FileChannel out = StoreFiles.createFresh(temp, StandardOpenOption.WRITE)) {
      out.write(ByteBuffer.wrap("mine".getBytes(StandardCharsets.UTF_8)));
    }

    assertThat(Files.readString(victim)).isEqualTo("precious");
    assertThat(Files.isSymbolicLink(temp)).isFalse();
    assertThat(Files.readString(temp)).isEqualTo("mine");
    assertThat(mode(temp)).isEqualTo("rw-------");
  }

  @Test
  void anAtomicWriteReplacesALinkAndIsOwnerOnly() throws IOException {
    Path victim = Files.writeString(dir.resolve("victim"), "precious");
    Path marker = Files.createSymbolicLink(dir.resolve("index.clean"), victim);
    Files.createSymbolicLink(dir.resolve("index.clean.tmp"), victim);

    StoreFiles.writeAtomically(marker, "journal-record=7\n".getBytes(StandardCharsets.UTF_8));

    assertThat(Files.readString(victim)).isEqualTo("precious");
    assertThat(Files.readString(marker)).isEqualTo("journal-record=7\n");
    assertThat(mode(marker)).isEqualTo("rw-------");
  }

  @Test
  void aNewStoreFolderIsOwnerOnlyAndAnOldOneIsTightened() throws IOException {
    Path fresh = dir.resolve("a/b/store");
    FolderGuard.secure(fresh);
    assertThat(mode(fresh)).isEqualTo("rwx------");

    Path old = Files.createDirectories(dir.resolve("old/journal")).getParent();
    Files.writeString(old.resolve("index.db"), "x");
    Files.writeString(old.resolve("journal/journal-1.log"), "x");
    for (Path p : new Path[] {old, old.resolve("journal")}) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Files.setPosixFilePermissions(old.resolve("index.db"),
        PosixFilePermissions.fromString("rw-r--r--"));

    FolderGuard.secure(old);

    assertThat(mode(old)).isEqualTo("rwx------");
    assertThat(mode(old.resolve("journal"))).isEqualTo("rwx------");
    assertThat(mode(old.resolve("index.db"))).isEqualTo("rw-------");
    assertThat(mode(old.resolve("journal/journal-1.log"))).isEqualTo("rw-------");
  }

  @Test
  void aStoreFolderReachedThroughTheUsersOwnLinkIsTightenedWhereItIs() throws IOException {
    Path real = Files.createDirectory(dir.resolve("on-another-disk"));
    Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path store = Files.createSymbolicLink(dir.resolve(".fsm"), real);

    FolderGuard.secure(store);

    assertThat(mode(real)).isEqualTo("rwx------");
  }

  @Test
  void aFolderOthersCanWriteIsRefusedSayingHowToFixIt() throws IOException {
    Path store = Files.createDirectory(dir.resolve("store"));
    Files.setPosixFilePermissions(store, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThatThrownBy(() -> FolderGuard.secure(store)).isInstanceOf(FsmException.class)
        .hasMessage("store folder " + store + " can be written by other users (mode rwxrwxrwx),"
            + " who could plant links in it to make fsm overwrite other files; make it private"
            + " with `chmod go-w " + store + "` (fsm creates store folders with mode 0700)");
  }

  @Test
  void aJournalFolderThatIsALinkIsRefused() throws IOException {
    Path store = Files.createDirectory(dir.resolve("store"));
    Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
    Files.createSymbolicLink(store.resolve("journal"), elsewhere);

    assertThatThrownBy(() -> FolderGuard.secure(store)).isInstanceOf(FsmException.class)
        .hasMessageStartingWith(store.resolve("journal") + " is a symbolic link");
    assertThatThrownBy(() -> StoreFiles.createFolder(store.resolve("journal")))
        .isInstanceOf(FsmException.class);
  }

  @Test
  void diskFailuresAreAdviceTheRestIsNot() {
    Path file = dir.resolve("store/journal");
    assertThat(DiskFailure.advice(file, new IOException("No space left on device")))
        .hasValue("no space left on the disk holding " + file + "; free some space there, then"
            + " run the command again");
    assertThat(DiskFailure.advice(file, new InternalError(
        "a fault occurred in an unsafe memory access operation")))
        .hasValueSatisfying(a -> assertThat(a).startsWith("the disk holding " + file
            + " is full or failing"));
    assertThat(DiskFailure.advice(file, new RuntimeException("wrapped",
        new IOException("Read-only file system"))))
        .hasValue(file + " is on a read-only file system; remount it read-write, or name a"
            + " writable store with --store PATH");
    assertThat(DiskFailure.advice(file, new AccessDeniedException(file.toString())))
        .hasValueSatisfying(a -> assertThat(a).startsWith("permission denied on " + file));
    assertThat(DiskFailure.advice(file, new IOException("Input/output error"))).isEmpty();
    assertThat(DiskFailure.advice(file, new InternalError("something else"))).isEmpty();
    assertThat(DiskFailure.of(file, "cannot open store x", new IOException("Bad things")))
        .hasMessage("cannot open store x: Bad things");
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p,
        LinkOption.NOFOLLOW_LINKS));
  }
}
