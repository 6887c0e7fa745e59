package dev.fsm.action.supervisor;

import java.time.Duration;

/** Where a runner says until when its programs may run: its supervisor, or nowhere. */
public interface Deadlines {

  /** The runner's programs must be gone {@code fromNow} from now, unless a newer deadline comes. */
  void deadline(Duration fromNow);

  /** The runner holds no lease: its programs have no deadline until it gives one. */
  void idle();

  /** Deadlines nobody enforces, for a runner without a supervisor. */
  Deadlines NONE = new Deadlines() {
    @Override
    public void deadline(Duration fromNow) {}

    @Override
    public void idle() {}
  };
}
