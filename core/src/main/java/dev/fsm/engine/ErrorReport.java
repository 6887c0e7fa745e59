package dev.fsm.engine;

import java.time.Instant;
import java.util.List;

/**
 * What {@code fsm errors} shows: the attempt errors since a time, grouped, most frequent first.
 *
 * @param since the start of the period
 * @param errors every error found, in all groups
 * @param groupCount how many groups there are in all
 * @param groups the most frequent groups, at most the limit asked for
 */
public record ErrorReport(Instant since, long errors, int groupCount, List<ErrorGroup> groups) {

  public ErrorReport {
    groups = List.copyOf(groups);
  }
}
