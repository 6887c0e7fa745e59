package dev.fsm.store.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * A throwaway PostgreSQL server with durable settings (fsync, synchronous commit and full-page
 * writes on, unlike the tests' server) for benchmarks: prints its store URL on one line, then
 * runs until its stdin closes. {@code bench/pg-vs-embedded.sh} starts it.
 */
public final class DurableServer {

  private DurableServer() {}

  public static void main(String[] args) throws IOException {
    Path data = Path.of(args.length > 0 ? args[0] : "pg-data");
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder()
        .setDataDirectory(data)
        .setCleanDataDirectory(true)
        .setServerConfig("fsync", "on")
        .setServerConfig("synchronous_commit", "on")
        .setServerConfig("full_page_writes", "on")
        .setServerConfig("max_connections", "200")
        .start()) {
      System.out.println("postgresql://postgres@localhost:" + pg.getPort() + "/postgres");
      System.out.flush();
      InputStream in = System.in;
      while (in.read() >= 0) {
        // Runs until the script that started it closes our stdin or is killed.
      }
    }
  }
}
