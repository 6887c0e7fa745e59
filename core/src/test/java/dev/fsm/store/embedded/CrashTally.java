package dev.fsm.store.embedded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What the crash suite's kills came to, per lane and in total; printed at the end. */
final class CrashTally {

  private int kills;
  private int early;
  private int atCheckpointStart;
  private int atCheckpointEnd;
  private int midCheckpoint;
  private int loaded;
  private int rebuiltAtOpen;
  private long acknowledged;
  private long checked;
  private long lost;
  private int landed;
  private int failedOpens;
  private final List<String> problems = new ArrayList<>();

  void killed(CrashRun.Lines run) {
    kills++;
    early += run.boundary() == CrashRun.Boundary.OPEN ? 1 : 0;
    atCheckpointStart += run.boundary() == CrashRun.Boundary.CHECKPOINT_START ? 1 : 0;
    atCheckpointEnd += run.boundary() == CrashRun.Boundary.CHECKPOINT_END ? 1 : 0;
    midCheckpoint += run.how().endsWith("mid-checkpoint") ? 1 : 0;
    loaded += run.how().contains("(loaded)") ? 1 : 0;
  }

  void rebuilt(boolean rebuilt) {
    rebuiltAtOpen += rebuilt ? 1 : 0;
  }

  /** Adds a check; false when it found problems, after which the folder is no model's. */
  boolean checked(CrashModel.Check check) {
    acknowledged += check.acknowledged();
    checked += check.checked();
    lost += check.lost();
    landed += check.landed();
    problems.addAll(check.problems());
    return check.problems().isEmpty();
  }

  void failedToOpen(String why) {
    failedOpens++;
    problems.add("failed to open: " + why);
  }

  void add(CrashTally other) {
    kills += other.kills;
    early += other.early;
    atCheckpointStart += other.atCheckpointStart;
    atCheckpointEnd += other.atCheckpointEnd;
    midCheckpoint += other.midCheckpoint;
    loaded += other.loaded;
    rebuiltAtOpen += other.rebuiltAtOpen;
    acknowledged += other.acknowledged;
    checked += other.checked;
    lost += other.lost;
    landed += other.landed;
    failedOpens += other.failedOpens;
    problems.addAll(other.problems);
  }

  int kills() {
    return kills;
  }

  int early() {
    return early;
  }

  int atCheckpointEnd() {
    return atCheckpointEnd;
  }

  int midCheckpoint() {
    return midCheckpoint;
  }

  int loaded() {
    return loaded;
  }

  int rebuiltAtOpen() {
    return rebuiltAtOpen;
  }

  long lost() {
    return lost;
  }

  int landed() {
    return landed;
  }

  int failedOpens() {
    return failedOpens;
  }

  List<String> problems() {
    return problems;
  }

  String summary(Duration took) {
    return String.format("crash suite: %d kills (%d while opening, %d just after a checkpoint"
        + " began, %d as one ended, %d mid-checkpoint; %d under induced load), %d acknowledged"
        + " changes, %d acknowledged words checked after kills, %d lost, %d unacknowledged"
        + " changes found landed whole, %d stores failed to open, %d problems; %d s",
        kills, early, atCheckpointStart, atCheckpointEnd, midCheckpoint, loaded, acknowledged,
        checked, lost, landed, failedOpens, problems.size(), took.toSeconds());
  }
}
