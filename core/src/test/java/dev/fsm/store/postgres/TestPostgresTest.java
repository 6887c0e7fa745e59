package dev.fsm.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The test server answers, and each test gets a schema of its own. */
class TestPostgresTest {

  @Test
  void answersAndHandsOutFreshSchemas() throws Exception {
    TestPostgres pg = TestPostgres.server();
    try (Connection c = pg.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT current_setting('server_version_num')::int")) {
      assertThat(r.next()).isTrue();
      assertThat(r.getInt(1)).as("xid8 and pg_current_xact_id need 13+").isGreaterThan(130000);
    }
    assertThat(pg.freshSchema()).isNotEqualTo(pg.freshSchema());
    assertThat(pg.freshUrl()).startsWith("postgresql://").contains("?schema=t");
  }
}
