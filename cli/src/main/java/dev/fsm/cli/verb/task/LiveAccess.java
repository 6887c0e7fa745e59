package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.StopSignal;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.control.OwnerLostException;
import dev.fsm.operations.Operations;
import dev.fsm.store.StoreBusyException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How a live view ({@code watch}, {@code tail}) reaches the store, poll after poll, riding through
 * runner restarts: each poll asks whoever serves the store now (a runner over its socket, or the
 * store opened here when there is none). A poll cut off because the runner stopped or was killed,
 * or refused because the store is briefly held, is asked again; a change of who serves the store
 * is said once on stderr. Only these are ridden through: any other error ends the view.
 */
final class LiveAccess {

  /** Pause between attempts while nobody can serve the store; short, as a runner binds soon. */
  static final Duration RETRY = Duration.ofMillis(200);

  private final Supplier<Operations> open;
  private final String verb;
  private final PrintWriter err;
  private final StopSignal stop;
  private String via;
  private boolean waiting;

  LiveAccess(GlobalOptions global, String verb, PrintWriter err, StopSignal stop) {
    this(() -> TaskAccess.open(global, verb, false), verb, err, stop);
  }

  LiveAccess(Supplier<Operations> open, String verb, PrintWriter err, StopSignal stop) {
    this.open = open;
    this.verb = verb;
    this.err = err;
    this.stop = stop;
  }

  /**
   * The result of one poll, asked again until it is answered; empty when the view was stopped
   * while waiting. {@code poll} may run more than once, so it must be safe to repeat.
   */
  <T> Optional<T> poll(Function<Operations, T> poll) {
    while (true) {
      try (Operations control = open.get()) {
        T result = poll.apply(control);
        arrived(control.via());
        return Optional.of(result);
      } catch (OwnerLostException | StoreBusyException e) {
        missed(e);
        if (stop.await(RETRY)) {
          return Optional.empty();
        }
      }
    }
  }

  /** Says who serves the store now, once, when that changed since the last answered poll. */
  private void arrived(String now) {
    String where = now.equals(Operations.LOCAL) ? "reading the store directly"
        : "reading through " + now;
    if (via != null && !via.equals(now)) {
      say(via.equals(Operations.LOCAL) ? where : via + " is gone; " + where);
    } else if (waiting) {
      say(via == null ? where : via.equals(Operations.LOCAL) ? "the store is free again"
          : via + " answers again");
    }
    via = now;
    waiting = false;
  }

  /**
   * A poll that was not answered. A lost owner is said only when a later poll finds another; a
   * store held past the wait {@link TaskAccess#open} already made is said at once. A store held
   * by this very process (a shell without its socket) is no wait: it ends the view.
   */
  private void missed(RuntimeException e) {
    if (e instanceof StoreBusyException busy && busy.heldHere()) {
      throw e;
    }
    if (e instanceof StoreBusyException && !waiting) {
      waiting = true;
      say("waiting for the store: " + e.getMessage());
    }
  }

  private void say(String line) {
    err.println(verb + ": " + line);
    err.flush();
  }
}
