package dev.fsm.files;

import dev.fsm.FsmException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns a failure of the disk under a store (full, read-only, not writable by this user, or a
 * mapped page that could not be backed) into one line that names the file and what to do
 * (SPEC section 7), instead of an exception's text or a stack trace.
 */
public final class DiskFailure {

  private DiskFailure() {}

  /**
   * An error for {@code doing} (e.g. "cannot open store X") failing on {@code file} because of
   * {@code cause}: the disk's advice when the disk is the reason, else the cause's message.
   */
  public static FsmException of(Path file, String doing, Throwable cause) {
    if (cause instanceof FsmException f) {
      return f;
    }
    return new FsmException(doing + ": " + advice(file, cause)
        .orElse(String.valueOf(rootMessage(cause))), cause);
  }

  /**
   * What to tell the user when {@code cause}, or one of its causes, is the disk failing rather
   * than fsm, naming the file the cause names, else {@code given}; empty otherwise.
   */
  public static Optional<String> advice(Path given, Throwable cause) {
    return find(given, cause).map(f -> f.problem() + "; " + f.remedy()
        + (f.thenAgain() ? ", then run the command again" : ""));
  }

  /**
   * As {@link #advice}, the problem alone and what fixes it, without saying to run the command
   * again: for a failure after the command's work was done.
   */
  public static Optional<String> afterTheWork(Path given, Throwable cause) {
    return find(given, cause).map(f -> f.problem() + "; " + f.remedy());
  }

  /** What failed, what fixes it, and whether the command is then to be run again. */
  private record Found(String problem, String remedy, boolean thenAgain) {}

  private static Optional<Found> find(Path given, Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      // The failing file itself, when the exception knows it, says more than its folder.
      Path file = t instanceof FileSystemException f && f.getFile() != null
          ? Path.of(f.getFile()) : given;
      String text = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
      if (text.contains("no space left on device") || text.contains("disk quota exceeded")) {
        return Optional.of(new Found("no space left on the disk holding " + file,
            "free some space there", true));
      }
      if (isMappedFault(t)) {
        return Optional.of(new Found("the disk holding " + file + " is full or failing (a page"
            + " of the file could not be read or stored)", "free some space there", true));
      }
      if (text.contains("read-only file system")) {
        return Optional.of(new Found(file + " is on a read-only file system",
            "remount it read-write, or name a writable store with --store PATH", false));
      }
      if (text.contains("operation not permitted") && !(t instanceof AccessDeniedException)) {
        // EPERM, not EACCES: even the owner (or root) may not, as with an immutable file.
        return Optional.of(new Found("operation not permitted on " + file, "check what forbids"
            + " it: an immutable or append-only attribute (lsattr, chattr -i), or the file"
            + " system's mount options", false));
      }
      if (t instanceof AccessDeniedException || text.contains("permission denied")) {
        return Optional.of(new Found("permission denied on " + file, ownedByMe(file)
            ? "it is yours but not writable: give yourself write permission back (chmod -R u+w"
                + " on the store folder)"
            : "run fsm as the user who owns the store folder, or give that user the folder back"
                + " (chown -R USER FOLDER)", false));
      }
    }
    return Optional.empty();
  }

  /**
   * Whether the user running fsm owns {@code file}, or its folder when the file does not exist:
   * then a denial is of permissions, not of ownership.
   */
  private static boolean ownedByMe(Path file) {
    try {
      Path at = Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? file
          : file.toAbsolutePath().getParent();
      return at != null && Files.exists(at, LinkOption.NOFOLLOW_LINKS)
          && Files.getOwner(at, LinkOption.NOFOLLOW_LINKS).getName()
              .equals(System.getProperty("user.name"));
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Whether {@code t} is the JVM's report of a fault in a memory-mapped file (SIGBUS): on tmpfs
   * a full file system cannot back a page of a mapping, and the JVM raises {@link
   * InternalError} in the thread that touched it.
   */
  public static boolean isMappedFault(Throwable t) {
    return t instanceof InternalError
        && String.valueOf(t.getMessage()).contains("unsafe memory access");
  }

  private static String rootMessage(Throwable cause) {
    Throwable t = cause;
    while (t.getCause() != null && t.getMessage() == null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
