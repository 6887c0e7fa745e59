package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.FsmException;
import dev.fsm.operations.Operations;
import dev.fsm.operations.PurgeReport;
import dev.fsm.store.PurgeQuery;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@link Operations#purge}: the query's filters travel (machine, statuses, age, dry run); its
 * cursor and batch size are the server's.
 */
public record Purge(String machine, List<TaskStatus> statuses, Duration olderThan,
    boolean dryRun) implements Request<PurgeReport> {

  static final String OP = "purge";

  public Purge {
    statuses = List.copyOf(statuses);
  }

  /** The request for a query. */
  public static Purge of(PurgeQuery query) {
    return new Purge(query.machine().orElse(null), List.copyOf(EnumSet.copyOf(query.statuses())),
        query.olderThan(), query.dryRun());
  }

  static Purge from(Arguments a) {
    return new Purge(a.get(Args.MACHINE), a.get(Args.STATUSES), a.get(Args.OLDER_THAN),
        a.get(Args.DRY_RUN));
  }

  @Override
  public String op() {
    return OP;
  }

  @Override
  public boolean changes() {
    return !dryRun;
  }

  @Override
  public void writeArguments(JsonGenerator g) throws IOException {
    Args.MACHINE.write(g, machine);
    Args.STATUSES.write(g, statuses);
    Args.OLDER_THAN.write(g, olderThan);
    Args.DRY_RUN.write(g, dryRun);
  }

  @Override
  public Codec<PurgeReport> result() {
    return PurgeReportCodec.REPORT;
  }

  @Override
  public PurgeReport apply(Operations operations, String owner) {
    if (olderThan == null) {
      // Never read a missing age as zero: that would delete every finished task.
      throw new FsmException("a purge request must give its age (--older-than); nothing was"
          + " deleted");
    }
    Set<TaskStatus> wanted = statuses.isEmpty() ? Set.of() : EnumSet.copyOf(statuses);
    PurgeQuery query;
    try {
      query = new PurgeQuery(Optional.ofNullable(machine), wanted, olderThan, dryRun,
          Optional.empty(), PurgeQuery.BATCH);
    } catch (IllegalArgumentException e) {
      throw new FsmException(e.getMessage() + "; nothing was deleted");
    }
    return operations.purge(query);
  }
}
