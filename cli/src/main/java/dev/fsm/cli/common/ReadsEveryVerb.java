package dev.fsm.cli.common;

/**
 * A verb that reads the other verbs through its parent command (completion lists and parses
 * them), so a command line naming it builds every verb: see {@code OneVerb}.
 */
public interface ReadsEveryVerb {}
