package dev.fsm.operations;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code fsm upgrade} did (or, in a dry run, would do) to a machine's older tasks.
 *
 * @param machine the machine's name
 * @param number the new version's number (in a dry run: the number it would get)
 * @param version the new version's id
 * @param registered true when the file's text became a new version (false: it was the newest)
 * @param strategy the file's {@code upgrade:} word
 * @param older per older version with unfinished tasks, oldest first
 * @param dryRun true when nothing was changed, not even registered
 */
public record UpgradeReport(String machine, int number, String version, boolean registered,
    String strategy, List<FromVersion> older, boolean dryRun) {

  public UpgradeReport {
    older = List.copyOf(older);
  }

  /**
   * The unfinished tasks of one older version and what became of them.
   *
   * @param number the older version's number
   * @param version its id
   * @param continued tasks that keep it
   * @param moved tasks moved to the new version
   * @param movingAfterAttempt running tasks that move once their attempt is recorded
   * @param mayFault of those, the ones whose outcome may leave them in a state the new version
   *     lacks, by that state (the first by name, for each task)
   * @param faulted tasks parked in fault, by the state the new version lacks
   * @param aborted tasks killed
   */
  public record FromVersion(int number, String version, int continued, int moved,
      int movingAfterAttempt, Map<String, Integer> mayFault, Map<String, Integer> faulted,
      int aborted) {

    public FromVersion {
      // In state order, so the plan reads the same every time.
      mayFault = Collections.unmodifiableSortedMap(new TreeMap<>(mayFault));
      faulted = Collections.unmodifiableSortedMap(new TreeMap<>(faulted));
    }

    /** Every unfinished task of this version that the upgrade looked at. */
    public int total() {
      return continued + moved + movingAfterAttempt + aborted
          + faulted.values().stream().mapToInt(Integer::intValue).sum();
    }
  }
}
