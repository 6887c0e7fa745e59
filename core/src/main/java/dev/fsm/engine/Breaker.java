package dev.fsm.engine;

import dev.fsm.model.BreakerPolicy;
import dev.fsm.store.BreakerNews;
import dev.fsm.task.AttemptErrors;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Optional;

/**
 * One machine's circuit breaker (SPEC section 4) as a pure state machine: the caller passes the
 * time to every method, so tests drive it with any clock. Closed, it counts the attempts that
 * ended within the window and opens when enough of them were errors ({@link AttemptErrors});
 * open, it lets nothing start until the cooldown ends; then half-open, it lets one probe start:
 * the probe's success closes it, its failure opens it again for twice the cooldown (at most
 * {@value BreakerPolicy#MAX_COOLDOWN_FACTOR} times the configured one). Thread-safe.
 */
public final class Breaker {

  /** Where a breaker is. */
  public enum Phase {
    CLOSED, OPEN, HALF_OPEN;

    /** The word users see: {@code closed}, {@code open}, {@code half-open}. */
    public String word() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /**
   * What a breaker shows: its phase, the error rate and attempts that decided it (or that it
   * counts now, when closed), and until when it stays open (null unless open).
   */
  public record Status(Phase phase, double errorRate, int attempts, Instant until) {}

  /** A change worth a log line: the breaker opened (again) or closed. */
  public record Change(Status status, boolean opened, boolean probeFailed) {}

  private record Ended(Instant at, boolean error) {}

  private final BreakerPolicy policy;
  private final Deque<Ended> window = new ArrayDeque<>();
  private int errorsInWindow;
  private Phase phase = Phase.CLOSED;
  private Instant openUntil;
  private Duration cooldown;
  private double openedRate;
  private int openedAttempts;
  private String probe;

  /** A closed breaker with these settings. */
  public Breaker(BreakerPolicy policy) {
    this.policy = policy;
    this.cooldown = policy.cooldown();
  }

  /** The settings. */
  public BreakerPolicy policy() {
    return policy;
  }

  /**
   * How many attempts may start now: none while open or while the probe runs, one to probe
   * when the cooldown is over, any number when closed.
   */
  public synchronized int room(Instant now) {
    return switch (phase(now)) {
      case CLOSED -> Integer.MAX_VALUE;
      case OPEN -> 0;
      case HALF_OPEN -> probe == null ? 1 : 0;
    };
  }

  /** An attempt of the machine started (the task was claimed); half-open, it is the probe. */
  public synchronized void started(String taskId, Instant now) {
    if (phase(now) == Phase.HALF_OPEN && probe == null) {
      probe = taskId;
    }
  }

  /**
   * A claimed task ended without an attempt ending (it only settled, or its action was stopped
   * by a command, a lost lease or a shutdown): a probe that did not decide frees the probe slot.
   */
  public synchronized void abandoned(String taskId) {
    if (taskId.equals(probe)) {
      probe = null;
    }
  }

  /**
   * An attempt ended, in an error or not.
   *
   * @return the change to log, if the breaker opened or closed
   */
  public synchronized Optional<Change> ended(String taskId, boolean error, Instant now) {
    if (taskId.equals(probe)) {
      probe = null;
      if (error) {
        long max = policy.cooldown().toMillis() * BreakerPolicy.MAX_COOLDOWN_FACTOR;
        cooldown = Duration.ofMillis(Math.min(max, cooldown.toMillis() * 2));
        openUntil = now.plus(cooldown);
        phase = Phase.OPEN;
        return Optional.of(new Change(status(now), true, true));
      }
      phase = Phase.CLOSED;
      cooldown = policy.cooldown();
      window.clear();
      errorsInWindow = 0;
      return Optional.of(new Change(status(now), false, false));
    }
    if (phase(now) != Phase.CLOSED) {
      // Attempts that started before it opened: the probe alone decides now.
      return Optional.empty();
    }
    window.addLast(new Ended(now, error));
    errorsInWindow += error ? 1 : 0;
    trim(now);
    int attempts = window.size();
    if (attempts >= policy.minAttempts()
        && errorsInWindow >= policy.errorShare() * attempts - 1e-9) {
      openedRate = (double) errorsInWindow / attempts;
      openedAttempts = attempts;
      phase = Phase.OPEN;
      openUntil = now.plus(cooldown);
      window.clear();
      errorsInWindow = 0;
      return Optional.of(new Change(status(now), true, false));
    }
    return Optional.empty();
  }

  /**
   * Another runner's breaker of this machine opened or closed (its {@link BreakerNews}): this
   * one follows, so the breaker holds across the runners of a shared store. An attempt that
   * runs here as the probe no longer decides anything.
   *
   * @return the change to log, if this breaker's phase changed
   */
  public synchronized Optional<Change> follow(BreakerNews news, Instant now) {
    Phase p = phase(now);
    if (news.open()) {
      if (!news.until().isAfter(now) || (p == Phase.OPEN && !openUntil.isBefore(news.until()))) {
        return Optional.empty();
      }
      phase = Phase.OPEN;
      openUntil = news.until();
      cooldown = news.cooldown();
      openedRate = news.errorRate();
      openedAttempts = news.attempts();
    } else {
      if (p == Phase.CLOSED) {
        return Optional.empty();
      }
      phase = Phase.CLOSED;
      cooldown = policy.cooldown();
    }
    probe = null;
    window.clear();
    errorsInWindow = 0;
    return Optional.of(new Change(status(now), news.open(), false));
  }

  /** What other runners should hear of {@code change} to this breaker of {@code machine}. */
  public synchronized BreakerNews news(String machine, Change change) {
    if (!change.opened()) {
      return BreakerNews.closed(machine);
    }
    return new BreakerNews(machine, true, openUntil, cooldown, openedRate, openedAttempts);
  }

  /** The breaker as users see it at {@code now}. */
  public synchronized Status status(Instant now) {
    Phase p = phase(now);
    if (p == Phase.CLOSED) {
      trim(now);
      int attempts = window.size();
      return new Status(p, attempts == 0 ? 0 : (double) errorsInWindow / attempts, attempts, null);
    }
    return new Status(p, openedRate, openedAttempts, p == Phase.OPEN ? openUntil : null);
  }

  /** When the phase next changes by itself (an open breaker's cooldown ends), if it will. */
  public synchronized Optional<Instant> nextChange(Instant now) {
    return phase(now) == Phase.OPEN ? Optional.of(openUntil) : Optional.empty();
  }

  private Phase phase(Instant now) {
    if (phase == Phase.OPEN && !now.isBefore(openUntil)) {
      phase = Phase.HALF_OPEN;
    }
    return phase;
  }

  private void trim(Instant now) {
    Instant from = now.minus(policy.window());
    while (!window.isEmpty() && window.peekFirst().at().isBefore(from)) {
      errorsInWindow -= window.pollFirst().error() ? 1 : 0;
    }
  }
}
