package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store folder on a hostile file system (SPEC section 7), driven through the real jar: a full
 * disk and a read-only one (tmpfs mounts, as root), links planted where store files belong, a
 * folder others can write, and the modes of what fsm creates.
 */
class HostileDiskIT {

  @TempDir Path dir;

  private final List<Path> mounts = new ArrayList<>();

  @BeforeEach
  void machine() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/order.yaml"), """
        machine: order
        states:
          pay:
            on: {paid: done}
          done: {final: completed}
        """);
  }

  @AfterEach
  void unmount() {
    for (Path m : mounts) {
      sh("umount", "-l", m.toString());
    }
  }

  @Test
  void aFullDiskIsOneLineLosesNothingAcknowledgedAndTheStoreOpensOnceSpaceIsBack()
      throws IOException {
    Path disk = tmpfs("size=16m");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 60_000; i++) {
      lines.append("{\"context\": {\"n\": ").append(i).append(", \"pad\": \"")
          .append("x".repeat(300)).append("\"}}\n");
    }
    Files.writeString(dir.resolve("many.jsonl"), lines);
    StoreCommands store = new StoreCommands(dir, disk.resolve("s").toString());

    FsmJar.Result full = store.run("start", "order", "--from", "many.jsonl");

    assertThat(full.exit()).as(full.err()).isEqualTo(1);
    assertThat(full.err()).as("one line, no trace").hasLineCount(1)
        .contains("no space left on the disk holding " + disk.resolve("s"))
        .contains("free some space there, then run the command again")
        .doesNotContain("Exception", "InternalError", "\tat ");
    List<String> acknowledged = full.outLines();
    assertThat(acknowledged).as("tasks started before the disk filled").isNotEmpty();
    // On the full disk the start may fit in the journal while the index cannot close: the
    // exit status says whether the task was started, so a script's retry never starts two.
    FsmJar.Result onFull = store.run("start", "order", "--id", "on-the-full-disk");
    if (onFull.exit() == 0) {
      assertThat(onFull.out()).contains("on-the-full-disk");
      assertThat(onFull.err().lines()).as("the start, then at most a warning")
          .allMatch(l -> l.startsWith("started task on-the-full-disk ")
              || l.startsWith("fsm: warning: store " + disk.resolve("s")
                  + " did not close cleanly: no space left"));
    } else {
      assertThat(onFull.exit()).as(onFull.err()).isEqualTo(1);
      assertThat(onFull.out()).isEmpty();
    }

    sh("mount", "-o", "remount,size=64m", disk.toString());
    FsmJar.Result listed = store.ok("ls", "--limit", "100000");
    Set<String> ids = new HashSet<>();
    listed.outLines().stream().skip(1).forEach(l -> ids.add(l.split(" +")[0]));
    assertThat(ids.remove("on-the-full-disk")).as(onFull.err()).isEqualTo(onFull.exit() == 0);
    assertAllListed(ids, acknowledged);
    assertNothingElse(ids, acknowledged.size(), full.err());
    store.ok("start", "order", "--id", "after-the-disk-filled");
  }

  @Test
  void aMappedIndexPageTheFullDiskCannotBackIsOneLineToo() throws IOException {
    Path disk = tmpfs("size=16m");
    StoreCommands store = new StoreCommands(dir, disk.resolve("s").toString());
    store.ok("start", "order", "--id", "first");
    // An index file with holes, as an earlier version grew it: MapDB's next pages are holes,
    // which the mapping makes the tmpfs back when first touched, a SIGBUS once it is full.
    sh("truncate", "-s", "12M", disk.resolve("s/index.db").toString());
    sh("dd", "if=/dev/zero", "of=" + disk.resolve("filler"), "bs=1M", "count=9");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 30_000; i++) {
      lines.append("{\"context\": {\"pad\": \"").append("x".repeat(300)).append("\"}}\n");
    }
    Files.writeString(dir.resolve("many.jsonl"), lines);

    FsmJar.Result full = store.run("start", "order", "--from", "many.jsonl");

    assertThat(full.exit()).as(full.err()).isEqualTo(1);
    // The page fault breaks the index; the chunk it came with then fails on the journal too,
    // which is what decides whether that chunk was saved, so either file may be named.
    assertThat(full.err()).hasLineCount(1)
        .containsAnyOf("the disk holding " + disk.resolve("s/index.db") + " is full or failing",
            "no space left on the disk holding " + disk.resolve("s/journal"))
        .contains("free some space there").doesNotContain("Exception", "InternalError", "\tat ");
    Files.delete(disk.resolve("filler"));
    FsmJar.Result listed = store.ok("ls", "--limit", "100000");
    Set<String> ids = new HashSet<>();
    listed.outLines().stream().skip(1).forEach(l -> ids.add(l.split(" +")[0]));
    assertThat(ids).contains("first");
    assertAllListed(ids, full.outLines());
    assertNothingElse(ids, full.outLines().size() + 1, full.err());
  }

  /**
   * Every acknowledged id is listed. The same check as AssertJ's {@code containsAll}, which
   * scans the whole set for each of the tens of thousands of ids (measured: 10 s for 32,000 on
   * an idle machine), where a hash set lookup each takes milliseconds in all.
   */
  private static void assertAllListed(Set<String> ids, List<String> acknowledged) {
    List<String> missing = acknowledged.stream().filter(id -> !ids.contains(id)).toList();
    assertThat(missing).as("acknowledged tasks missing from ls (of %s)", acknowledged.size())
        .isEmpty();
  }

  /**
   * What the message says of the tasks not acknowledged holds: a chunk it calls unsure may be in
   * the store, in part or whole; nothing else is.
   */
  private static void assertNothingElse(Set<String> ids, int acknowledged, String err) {
    Matcher unsure = Pattern.compile("lines (\\d+)-(\\d+) may or may not have been started")
        .matcher(err);
    int mayBeThere = unsure.find()
        ? Integer.parseInt(unsure.group(2)) - Integer.parseInt(unsure.group(1)) + 1 : 0;
    assertThat(ids.size()).as(err).isBetween(acknowledged, acknowledged + mayBeThere);
  }

  @Test
  void aReadOnlyDiskIsOneLineNamingIt() throws IOException {
    Path disk = tmpfs("size=4m");
    StoreCommands store = new StoreCommands(dir, disk.resolve("s").toString());
    store.ok("start", "order", "--id", "before");
    sh("mount", "-o", "remount,ro", disk.toString());

    FsmJar.Result refused = store.run("start", "order", "--id", "after");

    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).hasLineCount(1).contains("read-only file system")
        .doesNotContain("Exception", "\tat ");
    sh("mount", "-o", "remount,rw", disk.toString());
    assertThat(store.ok("ls").out()).contains("before").doesNotContain("after");
  }

  @Test
  void aFileFsmMayNotWriteIsOneLineNamingIt() throws IOException {
    assumeTrue(isRoot(), "making a file unwritable for root needs chattr, as root");
    StoreCommands store = new StoreCommands(dir, "store");
    store.ok("start", "order", "--id", "t1");
    Path segment;
    try (Stream<Path> files = Files.list(dir.resolve("store/journal"))) {
      segment = files.filter(f -> f.toString().endsWith(".log")).findFirst().orElseThrow();
    }
    assumeTrue(run("chattr", "+i", segment.toString()) == 0, "chattr +i is not supported here");
    try {
      FsmJar.Result refused = store.run("start", "order", "--id", "t2");

      assertThat(refused.exit()).isEqualTo(1);
      // EPERM, which even root gets: the advice is the attribute, not the owner.
      assertThat(refused.err()).isEqualTo("fsm: cannot open store store: operation not"
          + " permitted on " + dir.relativize(segment) + "; check what forbids it: an immutable"
          + " or append-only attribute (lsattr, chattr -i), or the file system's mount"
          + " options\n");
    } finally {
      sh("chattr", "-i", segment.toString());
    }
    assertThat(store.ok("ls").out()).contains("t1").doesNotContain("t2");
  }

  @Test
  void aLinkPlantedAsTheOwnerLockIsRefusedAndItsTargetLeftAlone() throws IOException {
    StoreCommands store = new StoreCommands(dir, "store");
    store.ok("start", "order", "--id", "t1");
    Path victim = Files.writeString(dir.resolve("victim"), "precious\n");
    Path lock = dir.resolve("store/owner.lock");
    Files.delete(lock);
    Files.createSymbolicLink(lock, victim);

    FsmJar.Result refused = store.run("ls");

    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).isEqualTo("fsm: store/owner.lock is a symbolic link (pointing to "
        + victim + "); fsm never writes store files through links, since whoever planted it"
        + " could make fsm overwrite the file it points to: remove it (rm store/owner.lock) and"
        + " check who can write to " + dir.resolve("store") + "\n");
    assertThat(Files.readString(victim)).isEqualTo("precious\n");
    Files.delete(lock);
    assertThat(store.ok("ls").out()).contains("t1");
  }

  @Test
  void aLinkPlantedAsATemporaryIsReplacedNotFollowed() throws IOException {
    StoreCommands store = new StoreCommands(dir, "store");
    store.ok("start", "order", "--id", "t1");
    Path victim = Files.writeString(dir.resolve("victim"), "precious\n");
    Path temp = dir.resolve("store/index.clean.tmp");
    Files.createSymbolicLink(temp, victim);

    // A verb that writes, so the store writes its clean marker at close (a read writes nothing).
    store.ok("send", "t1", "pause");

    assertThat(Files.readString(victim)).isEqualTo("precious\n");
    assertThat(Files.exists(temp, LinkOption.NOFOLLOW_LINKS)).isFalse();
  }

  @Test
  void aJournalFolderThatIsALinkIsRefused() throws IOException {
    StoreCommands store = new StoreCommands(dir, "store");
    store.ok("start", "order", "--id", "t1");
    Files.move(dir.resolve("store/journal"), dir.resolve("elsewhere"));
    Files.createSymbolicLink(dir.resolve("store/journal"), dir.resolve("elsewhere"));

    FsmJar.Result refused = store.run("ls");

    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).startsWith("fsm: store/journal is a symbolic link");
  }

  @Test
  void aFolderOthersCanWriteIsRefusedWithTheFix() throws IOException {
    StoreCommands store = new StoreCommands(dir, "store");
    store.ok("start", "order", "--id", "t1");
    Files.setPosixFilePermissions(dir.resolve("store"), PosixFilePermissions.fromString(
        "rwxrwxr-x"));

    FsmJar.Result refused = store.run("ls");

    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).isEqualTo("fsm: store folder store can be written by other users"
        + " (mode rwxrwxr-x), who could plant links in it to make fsm overwrite other files;"
        + " make it private with `chmod go-w store` (fsm creates store folders with mode"
        + " 0700)\n");
    sh("chmod", "go-w", dir.resolve("store").toString());
    assertThat(store.ok("ls").out()).contains("t1");
  }

  @Test
  void theFolderIsOwnerOnlyAndEveryFileInItToo() throws IOException {
    StoreCommands store = new StoreCommands(dir, "store");
    store.ok("start", "order", "--id", "t1");
    store.ok("store", "rebuild");
    assertOwnerOnly(dir.resolve("store"));
  }

  @Test
  void aStoreFromAnEarlierVersionIsTightenedAtOpen() throws IOException {
    StoreCommands store = new StoreCommands(dir, "store");
    store.ok("start", "order", "--id", "t1");
    sh("chmod", "-R", "go+rX", dir.resolve("store").toString());

    store.ok("ls");

    assertOwnerOnly(dir.resolve("store"));
  }

  @Test
  void aFolderOfAnotherUserIsRefused() throws IOException {
    assumeTrue(isRoot(), "needs root to give the folder to another user");
    StoreCommands store = new StoreCommands(dir, "store");
    store.ok("start", "order", "--id", "t1");
    sh("chown", "-R", "nobody", dir.resolve("store").toString());

    FsmJar.Result refused = store.run("ls");

    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).startsWith("fsm: store folder store belongs to user nobody, not to"
        + " root, who runs fsm").contains("sudo -u nobody fsm");
  }

  private static void assertOwnerOnly(Path folder) throws IOException {
    try (Stream<Path> all = Files.walk(folder)) {
      for (Path p : all.toList()) {
        String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p,
            LinkOption.NOFOLLOW_LINKS));
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          assertThat(mode).as("folder %s", p).isEqualTo("rwx------");
        } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          assertThat(mode).as("file %s", p).isEqualTo("rw-------");
        }
      }
    }
  }

  /** A fresh tmpfs in the test's folder; as root only, the test is skipped otherwise. */
  private Path tmpfs(String options) throws IOException {
    assumeTrue(isRoot(), "mounting a tmpfs needs root; run the tests as root to cover this");
    Path mount = Files.createDirectories(dir.resolve("disk" + mounts.size()));
    int status = sh("mount", "-t", "tmpfs", "-o", options, "tmpfs", mount.toString());
    assumeTrue(status == 0, "mount -t tmpfs failed here (no privilege in this container?)");
    mounts.add(mount);
    return mount;
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /** Runs a command and gives its exit status, whatever it is. */
  private static int run(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  private static int sh(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(String.join(" ", command) + " hung");
      }
      if (p.exitValue() != 0 && !command[0].equals("mount")) {
        throw new AssertionError(String.join(" ", command) + " failed: " + out);
      }
      return p.exitValue();
    } catch (IOException e) {
      throw new AssertionError("cannot run " + command[0], e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
