package dev.fsm.store;

/**
 * What a database server has done so far, read from its own counters: for a benchmark's cost
 * per transition, which only a store kept by a server can report.
 *
 * @param commits transactions committed in the store's database since the server's statistics
 *     were last reset
 * @param walBytes write-ahead log written by the whole server, as its current log position
 * @param walSyncs times the whole server forced its log to disk (each durable commit waits for
 *     one, and one can serve many); negative when the server does not count them
 */
public record ServerActivity(long commits, long walBytes, long walSyncs) {

  /** What happened between {@code before} and this reading. */
  public ServerActivity since(ServerActivity before) {
    return new ServerActivity(commits - before.commits, walBytes - before.walBytes,
        walSyncs < 0 || before.walSyncs < 0 ? -1 : walSyncs - before.walSyncs);
  }
}
