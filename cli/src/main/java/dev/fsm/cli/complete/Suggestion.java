package dev.fsm.cli.complete;

/**
 * One way to go on typing.
 *
 * @param value the word to insert
 * @param description what it means, for menus that show one; empty when obvious
 */
public record Suggestion(String value, String description) {}
