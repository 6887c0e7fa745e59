package dev.fsm.action;

import dev.fsm.action.api.ActionContext;
import dev.fsm.task.Task;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** What a {@code java:} action sees of its task and attempt. */
final class PluginContext implements ActionContext {

  private final Task task;
  private final Attempt attempt;
  private final BlockingQueue<String> commands = new LinkedBlockingQueue<>();

  PluginContext(Task task, Attempt attempt) {
    this.task = task;
    this.attempt = attempt;
    attempt.onCommand(command -> commands.add(command.word()));
  }

  @Override
  public String taskId() {
    return task.id();
  }

  @Override
  public String machine() {
    return task.machine();
  }

  @Override
  public String version() {
    return task.version();
  }

  @Override
  public String state() {
    return task.state();
  }

  @Override
  public int attempt() {
    return task.attempt();
  }

  @Override
  public String contextJson() {
    return task.context();
  }

  @Override
  public boolean stopRequested() {
    return attempt.stopRequested();
  }

  @Override
  public Optional<String> nextCommand(Duration timeout) throws InterruptedException {
    return Optional.ofNullable(commands.poll(timeout.toNanos(), TimeUnit.NANOSECONDS));
  }
}
