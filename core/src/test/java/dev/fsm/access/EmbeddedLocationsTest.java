package dev.fsm.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.store.Ownership;
import dev.fsm.store.StoreOpenOptions;
import dev.fsm.store.StorePurpose;
import dev.fsm.store.embedded.EmbeddedStoreKind;
import dev.fsm.store.embedded.EmbeddedStoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the listed embedded kind refuses before opening anything, word for word. */
class EmbeddedLocationsTest {

  @TempDir Path dir;
  private final StoreAccess access = StoreAccess.standard();

  @Test
  void aFolderIsServedByTheEmbeddedKindWithOneOwner() {
    StoreAccess.Located at = access.find(dir.toString(), StorePurpose.READ, "fsm ls");
    assertThat(at.kind()).isSameAs(EmbeddedStoreKind.INSTANCE);
    assertThat(at.kind().ownership()).isEqualTo(Ownership.OWNER_WITH_SOCKET);
    assertThat(at.hasOwner()).isTrue();
    assertThat(at.socketFolder()).isEqualTo(dir);
    assertThat(at.exists()).isFalse();
  }

  @Test
  void aTaskVerbRefusesAFile() throws Exception {
    Path file = Files.writeString(dir.resolve("notes.txt"), "x");
    assertThatThrownBy(() -> access.locate(file.toString(), StorePurpose.WRITE, "fsm start", true))
        .isExactlyInstanceOf(FsmException.class)
        .hasMessage("--store " + file + " is a file, not a store folder");
  }

  @Test
  void aTaskVerbThatDoesNotCreateRefusesAMissingStore() {
    Path none = dir.resolve("none");
    assertThatThrownBy(() -> access.locate(none.toString(), StorePurpose.READ, "fsm ls", false))
        .isExactlyInstanceOf(FsmException.class)
        .hasMessage("no fsm store at " + none + "; start a task there first with"
            + " `fsm start MACHINE`, or name a store with --store PATH or $FSM_STORE");
    assertThat(access.locate(none.toString(), StorePurpose.WRITE, "fsm start", true).exists())
        .isFalse();
    assertThat(Files.exists(none)).isFalse();
  }

  @Test
  void aStoreThatLostItsJournalFolderIsSaidToBeDamagedNotMissing() throws Exception {
    Path store = Files.createDirectories(dir.resolve("store"));
    Files.writeString(store.resolve("index.clean"), "x");
    String lost = "the store at " + store + " has lost its journal folder ("
        + store.resolve("journal") + " is missing) but still has its index, so its records are"
        + " missing. fsm changed nothing; run `fsm store repair --store " + store + "` to keep"
        + " every record that can be proven and report exactly what is lost, or restore the"
        + " store folder from a backup";
    assertThatThrownBy(() -> access.locate(store.toString(), StorePurpose.READ, "fsm ls", false))
        .isExactlyInstanceOf(FsmException.class).hasMessage(lost);
    assertThatThrownBy(() -> access.locate(store.toString(), StorePurpose.CHECK,
        "fsm store check", false)).isExactlyInstanceOf(FsmException.class).hasMessage(lost);
    assertThat(Files.exists(store.resolve("journal"))).isFalse();
  }

  @Test
  void aStoreVerbRefusesWhatIsNotAStoreFolder() throws Exception {
    Path none = dir.resolve("none");
    assertThatThrownBy(() -> access.locate(none.toString(), StorePurpose.CHECK,
        "fsm store check", false))
        .hasMessage("no store folder " + none + "; name an existing store with --store PATH or"
            + " $FSM_STORE");
    Path file = Files.writeString(dir.resolve("f"), "x");
    assertThatThrownBy(() -> access.locate(file.toString(), StorePurpose.CHECK,
        "fsm store check", false))
        .hasMessage("no store folder " + file + " (it is a file); name an existing store with"
            + " --store PATH or $FSM_STORE");
    assertThatThrownBy(() -> access.locate(dir.toString(), StorePurpose.CHECK,
        "fsm store check", false))
        .hasMessage("folder " + dir + " holds no fsm store (it has no journal/); name an"
            + " existing store with --store PATH or $FSM_STORE");
    assertThatThrownBy(() -> EmbeddedStoreKind.INSTANCE.repair(
        access.find(dir.toString(), StorePurpose.CHECK, "fsm store repair").location(),
        EmbeddedStoreOptions.defaults(), Instant.now()))
        .hasMessage("folder " + dir + " holds no fsm store (it has no journal/); name an"
            + " existing store with --store PATH or $FSM_STORE");
    assertThat(dir.resolve("journal")).doesNotExist();
  }

  @Test
  void aStoreOpenedForWritingThenExistsAndChecks() {
    Path store = dir.resolve("s");
    StoreAccess.Located at = access.locate(store.toString(), StorePurpose.WRITE, "fsm start",
        true);
    at.kind().open(at.location(), StorePurpose.WRITE, StoreOpenOptions.of("fsm start")
        .create(true)).close();
    assertThat(at.exists()).isTrue();
    access.locate(store.toString(), StorePurpose.CHECK, "fsm store check", false);
    access.locate(store.toString(), StorePurpose.READ, "fsm ls", false);
  }
}
