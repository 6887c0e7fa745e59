package dev.fsm.cli.verb.run;

import java.time.Duration;
import java.util.List;

/**
 * How a runner started, for its {@code started} event line.
 *
 * @param runner its name in leases and histories, {@code runner:PID@HOST}
 * @param host the host it runs on
 * @param store the store, as {@code --store} named it (a password masked)
 * @param storeKind {@code embedded} or {@code postgresql}
 * @param workers actions it runs at once
 * @param mode {@code forever}, {@code until-idle} or {@code once}
 * @param machines the only machines it claims tasks of; empty for all
 * @param lease how long a claim holds without renewal
 * @param grace how long a stop lets running actions finish
 * @param metrics where its metrics are served, or null
 * @param version fsm's version
 */
record RunStart(String runner, String host, String store, String storeKind, int workers,
    String mode, List<String> machines, Duration lease, Duration grace, String metrics,
    String version) {}
