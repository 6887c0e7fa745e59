package dev.fsm.operations;

import java.nio.file.Path;

/**
 * A machine file as the user's process read it: sent to whoever owns the store, which registers
 * it as the newest version (unless it already is) and starts tasks on it.
 *
 * @param name the machine's name
 * @param file the file's absolute path; programs run in its folder
 * @param text the file's whole text, already validated
 */
public record MachineSource(String name, Path file, String text) {}
