package dev.fsm.operations;

import java.time.Instant;

/**
 * The options of an operator's command ({@code fsm send}), as the user gave them.
 *
 * @param until for {@code sleep}: when to wake, or null
 * @param reason the {@code --reason}, or null
 * @param to for {@code redrive}: the state to go back to, or null for where the task stopped
 * @param afterStep {@code --after-step}: let a running action finish its step first
 * @param typed the word the user typed for the command when it was an alias (e.g. {@code
 *     resume}), for messages; null for the command's own word
 */
public record SendOptions(Instant until, String reason, String to, boolean afterStep,
    String typed) {

  /** Options with only a time and a reason. */
  public static SendOptions of(Instant until, String reason) {
    return new SendOptions(until, reason, null, false, null);
  }
}
