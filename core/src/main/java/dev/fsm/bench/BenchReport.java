package dev.fsm.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Everything one store benchmark run measured.
 *
 * @param options what was asked for
 * @param folder where it ran (deleted afterwards)
 * @param fileSystem the type of the file system it ran on, e.g. {@code ext4}
 * @param cores processors available to the JVM
 * @param recordBytes the size of one transition's journal record, as written by the bare log
 * @param oneByOne the journal alone and store transitions recorded one by one, in turn, per
 *     writer count
 * @param storeBatched store transitions recorded a claimed batch at a time, in the same order
 * @param halfLoad ack latency at half of the measured throughput
 * @param scale the store with many tasks
 */
public record BenchReport(BenchOptions options, Path folder, String fileSystem, int cores,
    int recordBytes, List<Interleaved> oneByOne, List<Throughput> storeBatched,
    HalfLoad halfLoad, ScaleResult scale) {

  public BenchReport {
    oneByOne = List.copyOf(oneByOne);
    storeBatched = List.copyOf(storeBatched);
  }

  /** The store's transitions/s over the bare log's records/s with as many writers. */
  public static double ratio(Throughput store, Throughput bareLog) {
    return bareLog.perSecond() == 0 ? 0 : store.perSecond() / bareLog.perSecond();
  }

  /** The bare log's median run with this many writers, if it was measured. */
  public Optional<Throughput> bareLog(int writers) {
    return oneByOne.stream().filter(p -> p.writers() == writers).findFirst()
        .map(Interleaved::bareLogMedian);
  }
}
