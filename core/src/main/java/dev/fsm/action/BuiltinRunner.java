package dev.fsm.action;

import dev.fsm.model.Action;
import dev.fsm.model.Durations;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Runs {@code builtin:} actions: noop, fail, sleep and emit. Thread-safe. */
final class BuiltinRunner implements ActionRunner {

  @Override
  public ActionOutcome run(ActionRequest request, Attempt attempt) {
    Action.Builtin builtin = (Action.Builtin) request.action();
    if (!builtin.builtin().accepts(builtin.args().size())) {
      return new ActionOutcome.Error("`" + builtin.text() + "` has the wrong arguments; write `"
          + builtin.builtin().usage() + "`");
    }
    return switch (builtin.builtin()) {
      case NOOP -> new ActionOutcome.Event("ok", null);
      case FAIL -> new ActionOutcome.Error(
          builtin.args().isEmpty() ? "builtin:fail" : String.join(" ", builtin.args()));
      case EMIT -> new ActionOutcome.Event(builtin.args().get(0), null);
      case SLEEP -> sleep(builtin.args().get(0), attempt);
    };
  }

  private static ActionOutcome sleep(String text, Attempt attempt) {
    Duration duration;
    try {
      duration = Durations.parse(text);
    } catch (IllegalArgumentException e) {
      return new ActionOutcome.Error("builtin:sleep: " + e.getMessage());
    }
    CountDownLatch stopped = new CountDownLatch(1);
    attempt.onStop(reason -> stopped.countDown());
    try {
      if (stopped.await(duration.toNanos(), TimeUnit.NANOSECONDS)) {
        return new ActionOutcome.Stopped(attempt.stopReason());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      Attempt.StopReason reason = attempt.stopReason();
      return new ActionOutcome.Stopped(reason == null ? Attempt.StopReason.SHUTDOWN : reason);
    }
    return new ActionOutcome.Event("ok", null);
  }
}
