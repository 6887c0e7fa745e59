package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.StoreLocation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The file a full disk's mapped-page failure is reported against is the index's file. */
class MappedFileTest {

  @Test
  void aFolderStoresMappedFileIsTheIndex() {
    Path folder = Path.of("/srv/fsm");
    assertThat(new StoreLocation.Folder(folder).mappedFile())
        .isEqualTo(folder.resolve(TaskIndex.FILE));
  }
}
