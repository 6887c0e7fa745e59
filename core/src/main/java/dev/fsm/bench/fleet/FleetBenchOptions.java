package dev.fsm.bench.fleet;

import dev.fsm.store.StoreKind;
import dev.fsm.store.StoreLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What {@code fsm bench --runners} measures.
 *
 * @param kind the kind of store at {@code location}; it must be shared by processes
 * @param location the store, as located
 * @param store the store as the user gave it, passed on to the runner processes
 * @param runners runner processes to start
 * @param workers workers of each runner
 * @param tasks tasks to enqueue
 * @param states no-op action states each task goes through
 * @param lease the runners' lease
 * @param parent the folder in which a temporary folder of machine files is made and deleted
 * @param fsm the command that runs this fsm (java, class path, main class), before the verb
 */
public record FleetBenchOptions(StoreKind kind, StoreLocation location, String store,
    int runners, int workers, int tasks, int states, Duration lease, Path parent,
    List<String> fsm) {

  public FleetBenchOptions {
    fsm = List.copyOf(fsm);
  }
}
