package dev.fsm.bench;

import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The bare log and the store recording outcomes one by one, with one writer count, measured in
 * turn round after round: a disk whose speed moves between minutes moves both of a pair, so the
 * ratio of each pair is steadier than the ratio of two separate runs.
 *
 * @param writers how many writers each run had
 * @param bareLog the bare log's runs, one per round, in order
 * @param store the store's runs, one per round, each measured right after the bare log's
 */
public record Interleaved(int writers, List<Throughput> bareLog, List<Throughput> store) {

  public Interleaved {
    bareLog = List.copyOf(bareLog);
    store = List.copyOf(store);
    if (bareLog.isEmpty() || bareLog.size() != store.size()) {
      throw new IllegalArgumentException("interleaved runs come in pairs, at least one: "
          + bareLog.size() + " bare log runs, " + store.size() + " store runs");
    }
  }

  /** How many pairs were measured. */
  public int rounds() {
    return bareLog.size();
  }

  /** The bare log's median run (of an even count, the slower of the middle two). */
  public Throughput bareLogMedian() {
    return median(bareLog);
  }

  /** The store's median run, as {@link #bareLogMedian()}. */
  public Throughput storeMedian() {
    return median(store);
  }

  /** The store's rate over the bare log's in each round, in round order. */
  public List<Double> ratios() {
    return IntStream.range(0, rounds())
        .mapToObj(i -> BenchReport.ratio(store.get(i), bareLog.get(i))).toList();
  }

  /** The median of the rounds' ratios (of an even count, the lower of the middle two). */
  public double ratioMedian() {
    List<Double> sorted = ratios().stream().sorted().toList();
    return sorted.get((sorted.size() - 1) / 2);
  }

  /** The lowest round's ratio. */
  public double ratioLowest() {
    return ratios().stream().min(Double::compare).orElseThrow();
  }

  /** The highest round's ratio. */
  public double ratioHighest() {
    return ratios().stream().max(Double::compare).orElseThrow();
  }

  private static Throughput median(List<Throughput> runs) {
    List<Throughput> sorted = runs.stream()
        .sorted(Comparator.comparingDouble(Throughput::perSecond)).toList();
    return sorted.get((sorted.size() - 1) / 2);
  }
}
