package dev.fsm.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** How {@code --store} text becomes a location. */
class StoreLocationTest {

  @Test
  void aPathIsAFolder() {
    assertThat(StoreLocation.parse("some/store"))
        .isEqualTo(new StoreLocation.Folder(Path.of("some/store")));
    assertThat(StoreLocation.parse("/abs/store").text()).isEqualTo("/abs/store");
  }

  @Test
  void bothPostgresqlSchemesAreADatabaseKeptAsWritten() {
    String url = "postgresql://fsm:secret@db:5432/fsm?schema=jobs&sslmode=require";
    assertThat(StoreLocation.parse(url)).isEqualTo(new StoreLocation.Database(url));
    assertThat(StoreLocation.parse("postgres://db/fsm"))
        .isEqualTo(new StoreLocation.Database("postgres://db/fsm"));
    assertThat(StoreLocation.parse("postgres://db/fsm").text()).isEqualTo("postgres://db/fsm");
  }

  @Test
  void aSchemeOnlyNearPostgresIsAFolderName() {
    assertThat(StoreLocation.parse("postgresql:/db")).isInstanceOf(StoreLocation.Folder.class);
    assertThat(StoreLocation.parse("PostgreSQL://db")).isInstanceOf(StoreLocation.Folder.class);
  }

  @Test
  void anInvalidPathSaysWhy() {
    assertThatThrownBy(() -> StoreLocation.parse("bad\0name"))
        .isExactlyInstanceOf(FsmException.class)
        .hasMessage("--store bad\0name is not a valid path: Nul character not allowed");
  }
}
