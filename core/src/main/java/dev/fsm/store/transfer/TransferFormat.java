package dev.fsm.store.transfer;

/**
 * The export format's name and version ({@code docs/export-format.md}). A reader refuses a
 * newer version; a change that an older reader could misread bumps it, while a new optional
 * key (which readers ignore) does not.
 */
public final class TransferFormat {

  /** The value of the header's {@code format} key. */
  public static final String NAME = "fsm-export";

  /** The version this fsm writes, and the newest it reads. */
  public static final int VERSION = 1;

  /**
   * The longest line read, in characters: room for a task with a long history (an embedded
   * store takes at most 2 MiB per task and history), while a file with no line breaks is refused
   * before it fills memory.
   */
  public static final int MAX_LINE_CHARS = 16 << 20;

  private TransferFormat() {}
}
