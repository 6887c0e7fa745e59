package dev.fsm.operations;

import java.util.List;

/**
 * What a bulk send did (or, in a dry run, would do).
 *
 * @param matched tasks the selector matched
 * @param changed ids of tasks the command changed (or would change)
 * @param refused tasks whose status refused the command, with the reason
 * @param dryRun true when nothing was changed
 */
public record BulkSendReport(int matched, List<String> changed, List<Refusal> refused,
    boolean dryRun) {

  /** One task that refused the command, and why. */
  public record Refusal(String id, String reason) {}
}
