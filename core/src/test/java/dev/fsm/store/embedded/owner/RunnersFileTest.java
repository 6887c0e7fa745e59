package dev.fsm.store.embedded.owner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.RunnerRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** runners.json: private, bounded, and never in the way when damaged. */
class RunnersFileTest {

  private static final Instant T0 = Instant.parse("2026-11-25T07:00:00Z");

  @TempDir Path dir;

  private static RunnerRecord runner(int n, Instant seen) {
    return new RunnerRecord("runner:" + n + "@h", "h", n, 1, List.of(), seen, seen, 0, 0,
        false);
  }

  @Test
  void theFileIsOwnerOnlyAndADamagedOneReadsAsEmptyAndIsReplaced() throws Exception {
    new RunnersFile(dir).seen(runner(1, T0));
    Path file = dir.resolve(RunnersFile.FILE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(new RunnersFile(dir).seenSince(T0)).containsExactly(runner(1, T0));

    Files.writeString(file, "{\"not\": \"a list\"");
    RunnersFile damaged = new RunnersFile(dir);
    assertThat(damaged.seenSince(T0)).isEmpty();
    damaged.seen(runner(2, T0));
    assertThat(new RunnersFile(dir).seenSince(T0)).containsExactly(runner(2, T0));
  }

  @Test
  void aLinkInItsPlaceIsReplacedNotFollowed() throws Exception {
    Path target = Files.writeString(dir.resolve("elsewhere"), "keep");
    Files.createSymbolicLink(dir.resolve(RunnersFile.FILE), target);
    RunnersFile runners = new RunnersFile(dir);
    assertThat(runners.seenSince(T0)).isEmpty();
    runners.seen(runner(1, T0));
    assertThat(Files.readString(target)).isEqualTo("keep");
    assertThat(Files.isSymbolicLink(dir.resolve(RunnersFile.FILE))).isFalse();
  }

  @Test
  void recordsAnHourOlderThanTheNewestAndTheOldestBeyondTheBoundAreDropped() {
    RunnersFile runners = new RunnersFile(dir);
    runners.seen(runner(1, T0));
    runners.seen(runner(2, T0.plusSeconds(3601)));
    assertThat(new RunnersFile(dir).seenSince(Instant.MIN)).extracting(RunnerRecord::pid)
        .containsExactly(2L);
    for (int i = 0; i < RunnersFile.MAX_RECORDS + 10; i++) {
      runners.seen(runner(100 + i, T0.plusSeconds(3700 + i)));
    }
    List<RunnerRecord> kept = new RunnersFile(dir).seenSince(Instant.MIN);
    assertThat(kept).hasSize(RunnersFile.MAX_RECORDS);
    assertThat(kept.get(0).pid()).isEqualTo(110);
  }
}
