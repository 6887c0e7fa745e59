package dev.fsm.store;

import java.time.Instant;

/**
 * A machine's latest breaker news as a shared store keeps it ({@link Store#breakerNews}), and
 * when it was announced: a breaker's count restarts when it closes, so what came before a close
 * no longer counts.
 */
public record AnnouncedBreaker(BreakerNews news, Instant at) {}
