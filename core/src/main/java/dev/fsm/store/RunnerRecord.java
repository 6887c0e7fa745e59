package dev.fsm.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What a store knows of one runner ({@code fsm runners}): written by the runner's heartbeat at
 * start, every {@link #HEARTBEAT} and once more at a clean stop.
 *
 * @param id the runner's owner name in leases, e.g. {@code runner:1234@host}
 * @param host the host it runs on
 * @param pid its process id on that host
 * @param workers actions it runs at once
 * @param machines the only machines it claims ({@code run --machine}), sorted; empty for all
 * @param started when it started
 * @param seen when its heartbeat last wrote this record
 * @param held the tasks it held then
 * @param rate its transitions per second over the last heartbeat interval
 * @param stopped true once it exited cleanly
 */
public record RunnerRecord(String id, String host, long pid, int workers, List<String> machines,
    Instant started, Instant seen, int held, double rate, boolean stopped) {

  /** How often a runner writes its record. */
  public static final Duration HEARTBEAT = Duration.ofSeconds(2);
  /** A runner not seen for this long, and not stopped, is gone (crashed or cut off). */
  public static final Duration LIVE_WITHIN = HEARTBEAT.multipliedBy(3);
  /** The order {@link Store#runners} lists them in: oldest start first, then by id. */
  public static final Comparator<RunnerRecord> ORDER =
      Comparator.comparing(RunnerRecord::started).thenComparing(RunnerRecord::id);
  /** How long a store keeps the record of a runner it no longer sees. */
  public static final Duration KEPT = Duration.ofHours(1);

  public RunnerRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(started, "started");
    Objects.requireNonNull(seen, "seen");
    machines = List.copyOf(new TreeSet<>(machines));
  }

  /** Where a runner stands, as {@code fsm runners} and {@code fsm watch} show it. */
  public enum Status {
    /** Seen within {@link #LIVE_WITHIN}. */
    RUNNING,
    /** Not seen since, and did not stop cleanly: crashed, hung or cut off from the store. */
    GONE,
    /** Exited cleanly. */
    STOPPED;

    /** The word shown for it. */
    public String word() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Where the runner stands at {@code now}, by the store's clock. */
  public Status status(Instant now) {
    if (stopped) {
      return Status.STOPPED;
    }
    return seen.isBefore(now.minus(LIVE_WITHIN)) ? Status.GONE : Status.RUNNING;
  }

  /** This record as the runner's heartbeat writes it at {@code now}. */
  public RunnerRecord seenAt(Instant now, int held, double rate) {
    return new RunnerRecord(id, host, pid, workers, machines, started, now, held, rate, stopped);
  }

  /** This record at a clean stop. */
  public RunnerRecord stoppedAt(Instant now) {
    return new RunnerRecord(id, host, pid, workers, machines, started, now, 0, rate, true);
  }
}
