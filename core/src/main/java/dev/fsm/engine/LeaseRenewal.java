package dev.fsm.engine;

import dev.fsm.action.Attempt;
import dev.fsm.store.Store;
import dev.fsm.store.StoreUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The runner's lease renewal, run by its timer: every task it holds gets a fresh lease in one
 * store call, and the attempt of a task whose lease was lost (another runner has it now) is
 * stopped.
 */
final class LeaseRenewal implements Runnable {

  private final Store store;
  private final String owner;
  private final Duration lease;
  private final LeaseGuard guard;
  private final StoreOutage outage;
  private final RunListener listener;
  private final Map<String, Runner.InFlight> held;

  LeaseRenewal(Store store, String owner, Duration lease, LeaseGuard guard, StoreOutage outage,
      RunListener listener, Map<String, Runner.InFlight> held) {
    this.store = store;
    this.owner = owner;
    this.lease = lease;
    this.guard = guard;
    this.outage = outage;
    this.listener = listener;
    this.held = held;
  }

  @Override
  public void run() {
    if (held.isEmpty()) {
      return;
    }
    long renewedAt = System.nanoTime();
    try {
      LeaseGuard.Basis asOf = guard.basis();
      Instant until = asOf.at().plus(lease);
      List<String> asked = List.copyOf(held.keySet());
      Collection<String> lost = store.renew(owner, asked, until);
      guard.renewed(asked, lost, until, asOf);
      for (String id : lost) {
        Runner.InFlight f = held.get(id);
        if (f != null) {
          f.attempt.stop(Attempt.StopReason.LEASE_LOST);
        }
      }
      outage.back(renewedAt);
    } catch (StoreUnavailableException e) {
      // The next renewal tries again; a lease that runs out meanwhile is reported lost then.
      outage.went("renewing leases", e, Duration.ofMillis(lease.toMillis() / 3), renewedAt);
    } catch (RuntimeException e) {
      listener.problem(RunListener.Topic.LEASE, "could not renew leases: " + e.getMessage());
    }
  }
}
