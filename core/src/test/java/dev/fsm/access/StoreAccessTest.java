package dev.fsm.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.control.ControlServer;
import dev.fsm.control.SocketControl;
import dev.fsm.operations.Operations;
import dev.fsm.store.Ownership;
import dev.fsm.store.Store;
import dev.fsm.store.StoreBusyException;
import dev.fsm.store.StoreKind;
import dev.fsm.store.StoreLocation;
import dev.fsm.store.StoreOpenOptions;
import dev.fsm.store.StorePurpose;
import dev.fsm.store.embedded.EmbeddedStoreKind;
import dev.fsm.store.memory.InMemoryStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which way StoreAccess reaches a store, by the kind's ownership, with fake kinds. */
class StoreAccessTest {

  @TempDir Path folder;

  /** A kind that accepts folders, opens in-memory stores and records what it was asked. */
  private static final class FakeKind implements StoreKind {
    final Ownership ownership;
    final List<StoreOpenOptions> opens = new ArrayList<>();
    int busyTimes;
    boolean socketAsked;

    FakeKind(Ownership ownership) {
      this.ownership = ownership;
    }

    @Override
    public String name() {
      return "fake";
    }

    @Override
    public boolean accepts(StoreLocation location) {
      return location instanceof StoreLocation.Folder;
    }

    @Override
    public Ownership ownership() {
      return ownership;
    }

    @Override
    public boolean exists(StoreLocation location) {
      return true;
    }

    @Override
    public void check(StoreLocation location, StorePurpose purpose, String verb,
        boolean create) {
      if (!create && verb.equals("fsm missing")) {
        throw new FsmException("nothing at " + location.text());
      }
    }

    @Override
    public Store open(StoreLocation location, StorePurpose purpose, StoreOpenOptions options) {
      opens.add(options);
      if (busyTimes > 0) {
        busyTimes--;
        throw new StoreBusyException("held by process 1", OptionalLong.of(1));
      }
      return new InMemoryStore();
    }

    @Override
    public Path socketFolder(StoreLocation location) {
      socketAsked = true;
      return ((StoreLocation.Folder) location).path();
    }
  }

  private Operations operations(StoreAccess access, String verb, boolean create) {
    StoreAccess.Located at = access.locate(folder.toString(), StorePurpose.READ, verb, create);
    return access.operations(at, StorePurpose.READ, verb, create, folder, notice -> {});
  }

  @Test
  void aSharedKindIsOpenedHereEvenWhenASocketAnswers() {
    FakeKind kind = new FakeKind(Ownership.SHARED);
    StoreAccess access = new StoreAccess(List.of(kind));
    try (ControlServer other = ControlServer.start(folder, FakeOperations.answering("x"), "runner");
        Operations ops = operations(access, "fsm ls", false)) {
      assertThat(ops.via()).isEqualTo("local");
      assertThat(kind.opens).hasSize(1);
      assertThat(kind.socketAsked).isFalse();
      assertThat(kind.opens.get(0).verb()).isEqualTo("fsm ls");
      assertThat(kind.opens.get(0).waitInLine()).isTrue();
      assertThat(kind.opens.get(0).servedElsewhere().getAsBoolean()).isFalse();
    }
  }

  @Test
  void anOwnedKindWithALiveOwnerIsReachedThroughItsSocket() {
    FakeKind kind = new FakeKind(Ownership.OWNER_WITH_SOCKET);
    StoreAccess access = new StoreAccess(List.of(kind));
    try (ControlServer owner = ControlServer.start(folder, FakeOperations.answering("x"), "runner");
        Operations ops = operations(access, "fsm ls", false)) {
      assertThat(ops).isInstanceOf(SocketControl.class);
      assertThat(ops.via()).isEqualTo("runner pid " + ProcessHandle.current().pid());
      assertThat(kind.opens).isEmpty();
    }
  }

  @Test
  void anOwnedKindWithoutAnOwnerIsOpenedHereAndItsWaitersAskTheSocket() {
    FakeKind kind = new FakeKind(Ownership.OWNER_WITH_SOCKET);
    StoreAccess access = new StoreAccess(List.of(kind));
    try (Operations ops = operations(access, "fsm start", true)) {
      assertThat(ops.via()).isEqualTo("local");
      StoreOpenOptions options = kind.opens.get(0);
      assertThat(options.create()).isTrue();
      assertThat(options.servedElsewhere().getAsBoolean()).isFalse();
      try (ControlServer owner = ControlServer.start(folder, FakeOperations.answering("x"),
          "runner")) {
        assertThat(options.servedElsewhere().getAsBoolean()).isTrue();
      }
    }
  }

  @Test
  void anOwnedKindHeldBrieflyIsOpenedOnceFree() {
    FakeKind kind = new FakeKind(Ownership.OWNER_WITH_SOCKET);
    kind.busyTimes = 2;
    try (Operations ops = operations(new StoreAccess(List.of(kind)), "fsm ls", false)) {
      assertThat(ops.via()).isEqualTo("local");
      assertThat(kind.opens).hasSize(3);
    }
  }

  @Test
  void runningOnAStoreItsOwnerServesNamesTheOwner() {
    FakeKind kind = new FakeKind(Ownership.OWNER_WITH_SOCKET);
    kind.busyTimes = 1;
    StoreAccess access = new StoreAccess(List.of(kind));
    StoreAccess.Located at = access.locate(folder.toString(), StorePurpose.RUN, "fsm run", true);
    try (ControlServer owner = ControlServer.start(folder, FakeOperations.answering("x"),
        "shell")) {
      assertThatThrownBy(() -> access.store(at, StorePurpose.RUN, "fsm run", n -> {}))
          .isExactlyInstanceOf(FsmException.class)
          .hasMessage("store " + folder + " is already served by shell pid "
              + ProcessHandle.current().pid() + "; one runner per embedded store: stop it"
              + " first, or send it work with `fsm start`");
    }
  }

  @Test
  void aBusySharedStoreIsRefusedAsItIs() {
    FakeKind kind = new FakeKind(Ownership.SHARED);
    kind.busyTimes = 1;
    StoreAccess access = new StoreAccess(List.of(kind));
    StoreAccess.Located at = access.locate(folder.toString(), StorePurpose.RUN, "fsm run", true);
    assertThatThrownBy(() -> access.store(at, StorePurpose.RUN, "fsm run", n -> {}))
        .isExactlyInstanceOf(StoreBusyException.class).hasMessage("held by process 1");
    assertThat(kind.socketAsked).isFalse();
  }

  @Test
  void theKindChecksBeforeAnythingIsOpened() {
    FakeKind kind = new FakeKind(Ownership.OWNER_WITH_SOCKET);
    assertThatThrownBy(() -> operations(new StoreAccess(List.of(kind)), "fsm missing", false))
        .hasMessage("nothing at " + folder);
    assertThat(kind.opens).isEmpty();
  }

  @Test
  void aDatabaseIsServedByPostgreSqlAndRefusedWhereNoKindServesIt() {
    assertThat(StoreAccess.standard().find("postgresql://db/fsm", StorePurpose.WRITE,
        "fsm start").kind().name()).isEqualTo("PostgreSQL");
    StoreAccess access = new StoreAccess(List.of(EmbeddedStoreKind.INSTANCE));
    assertThatThrownBy(() -> access.locate("postgresql://db/fsm", StorePurpose.WRITE,
        "fsm start", true))
        .isExactlyInstanceOf(FsmException.class)
        .hasMessage("PostgreSQL stores (postgresql://db/fsm) come in a later version of fsm;"
            + " use an embedded store folder with --store PATH");
    assertThatThrownBy(() -> access.find("postgres://db/fsm", StorePurpose.CHECK,
        "fsm store repair"))
        .isExactlyInstanceOf(FsmException.class)
        .hasMessage("`fsm store repair` is not supported yet for PostgreSQL stores"
            + " (postgres://db/fsm); it works on an embedded store folder, named with --store"
            + " PATH");
  }

  @Test
  void aFolderNoKindServesIsRefused() {
    assertThatThrownBy(() -> new StoreAccess(List.of()).find("here", StorePurpose.READ, "fsm ls"))
        .hasMessage("no kind of store fsm knows serves --store here");
  }
}
