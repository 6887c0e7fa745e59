package dev.fsm.action;

import dev.fsm.model.Action;
import dev.fsm.model.Machine;
import dev.fsm.task.Task;

/**
 * One attempt to run: the task as claimed, its machine version, and the action of its state.
 *
 * @param task the task, with the attempt number of this attempt in {@code attempt()}
 * @param machine the machine version the task is pinned to; programs run in its folder
 * @param action the action of the task's current state
 * @param versionNumber the number of the task's machine version, as {@code fsm machines} shows
 * @param runner the runner and worker running the attempt, as history names them (e.g. {@code
 *     runner:PID@HOST/w1})
 */
public record ActionRequest(Task task, Machine machine, Action action, int versionNumber,
    String runner) {}
