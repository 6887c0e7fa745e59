package dev.fsm.store.embedded.journal;

import java.nio.file.Path;

/**
 * Where opening a journal cut a segment short, and why.
 *
 * @param file the segment that was cut
 * @param offset the byte where the first unusable frame started; the file now ends there
 * @param bytesCut how many bytes were removed from the file
 * @param reason what was wrong, such as "CRC mismatch" or "file ends inside a record"
 */
public record Cut(Path file, long offset, long bytesCut, String reason) {}
