package dev.fsm.task;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The status users see and select: the stored {@link TaskStatus}, except that a runnable task in
 * an externally progressed state shows as {@code waiting} (it waits for {@code fsm signal}, so a
 * store full of them never reads as a stuck runner). Commands still see it as runnable.
 */
public enum ShownStatus {
  RUNNABLE(TaskStatus.RUNNABLE),
  /** Runnable in a state with no action and no wait: waiting for a signal. */
  WAITING(TaskStatus.RUNNABLE),
  SLEEPING(TaskStatus.SLEEPING),
  PAUSED(TaskStatus.PAUSED),
  FAULT(TaskStatus.FAULT),
  COMPLETED(TaskStatus.COMPLETED),
  FAILED(TaskStatus.FAILED),
  KILLED(TaskStatus.KILLED);

  private final TaskStatus stored;

  ShownStatus(TaskStatus stored) {
    this.stored = stored;
  }

  /** The status the store keeps for tasks shown this way. */
  public TaskStatus stored() {
    return stored;
  }

  /** How a task with this stored status shows, in an externally progressed state or not. */
  public static ShownStatus of(TaskStatus status, boolean externalState) {
    if (status == TaskStatus.RUNNABLE) {
      return externalState ? WAITING : RUNNABLE;
    }
    return valueOf(status.name());
  }

  /** Every shown status a task with this stored status may have. */
  public static Set<ShownStatus> showing(TaskStatus status) {
    EnumSet<ShownStatus> all = EnumSet.noneOf(ShownStatus.class);
    for (ShownStatus s : values()) {
      if (s.stored == status) {
        all.add(s);
      }
    }
    return all;
  }

  /** The stored statuses of these shown ones. */
  public static Set<TaskStatus> stored(Set<ShownStatus> shown) {
    EnumSet<TaskStatus> all = EnumSet.noneOf(TaskStatus.class);
    for (ShownStatus s : shown) {
      all.add(s.stored);
    }
    return all;
  }

  /** The word users type and see. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The status a user typed, if it is one. */
  public static Optional<ShownStatus> parse(String word) {
    for (ShownStatus s : values()) {
      if (s.word().equals(word)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}
