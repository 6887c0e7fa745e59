package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read verbs open a cleanly closed store to read only: they change no file of it, and an
 * index today's open checks would reject is rebuilt before anything is printed from it.
 */
class ReadVerbsIT {

  @TempDir Path dir;

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

  @Test
  void readingAStoreChangesNoFileOfIt() throws IOException {
    StoreCommands store = new StoreCommands(dir, "store");
    store.ok("start", "order", "--id", "t1");
    store.ok("send", "t1", "pause");
    Map<String, String> before = files(dir.resolve("store"));

    assertThat(store.ok("show", "t1").out()).contains("status    paused");
    assertThat(store.ok("ls", "--limit", "10").out()).contains("t1");
    assertThat(store.ok("stats").out()).contains("order");
    assertThat(store.ok("history", "t1").out()).contains("pause");

    assertThat(files(dir.resolve("store"))).isEqualTo(before);
  }

  @Test
  void anIndexLeftByAnEarlierCloseIsRebuiltBeforeAnythingIsShown() throws IOException {
    StoreCommands store = new StoreCommands(dir, "store");
    store.ok("start", "order", "--id", "t1");
    Path index = dir.resolve("store/index.db");
    Path earlier = Files.copy(index, dir.resolve("index-with-t1-only.db"));
    store.ok("start", "order", "--id", "t2");
    // Sound, but of this store one change ago, under a marker naming the journal's end.
    Files.copy(earlier, index, StandardCopyOption.REPLACE_EXISTING);

    assertThat(store.ok("show", "t2").out()).contains("task      t2");
    assertThat(store.ok("ls", "-q").out()).isEqualTo("t1\nt2\n");
    assertThat(store.ok("stats").out()).contains("2 waiting");
  }

  /** Every file with its size and a digest of its bytes, but who last held the folder. */
  private static Map<String, String> files(Path folder) throws IOException {
    Map<String, String> all = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path f : walk.filter(Files::isRegularFile).toList()) {
        String name = folder.relativize(f).toString();
        if (!name.startsWith("owner.")) {
          all.put(name, Files.size(f) + " " + Files.getLastModifiedTime(f) + " "
              + Arrays.hashCode(Files.readAllBytes(f)));
        }
      }
    }
    return all;
  }
}
