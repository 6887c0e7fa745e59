package dev.fsm.store;

import dev.fsm.FsmException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/** Where a store is, as {@code --store} or {@code $FSM_STORE} names it: a folder or a database. */
public sealed interface StoreLocation {

  /** The location as the user wrote it, for messages. */
  String text();

  /** A store in a folder of this machine, such as the embedded store. */
  record Folder(Path path) implements StoreLocation {
    @Override
    public String text() {
      return path.toString();
    }

    /**
     * The file of a store in this folder that is mapped into memory (the embedded store's
     * index), which is what a page the disk could not back belongs to.
     */
    public Path mappedFile() {
      return path.resolve(MAPPED_FILE);
    }

    /** The name of {@link #mappedFile()} in the folder. */
    public static final String MAPPED_FILE = "index.db";
  }

  /** A store in a database server, named by its URL. */
  record Database(String url) implements StoreLocation {
    /** The URL with its password masked: messages never show a password. */
    @Override
    public String text() {
      return masked(url);
    }

    /**
     * {@code text} with the password of a database URL, in its user part or query, masked: up
     * to the last {@code @}, so that a password with an {@code @}, {@code /} or {@code ?} it
     * should have percent-encoded is masked whole too.
     */
    public static String masked(String text) {
      return text.replaceFirst("^(postgres(?:ql)?://[^:@/?]*:).*@", "$1***@")
          .replaceAll("([?&]password=)[^&]*", "$1***");
    }
  }

  /**
   * The location {@code text} names: a PostgreSQL URL ({@code postgresql://} or {@code
   * postgres://}) or a folder path.
   *
   * @throws FsmException when the text is not a valid path
   */
  static StoreLocation parse(String text) {
    if (text.startsWith("postgresql://") || text.startsWith("postgres://")) {
      return new Database(text);
    }
    try {
      return new Folder(Path.of(text));
    } catch (InvalidPathException e) {
      throw new FsmException("--store " + text + " is not a valid path: " + e.getReason());
    }
  }
}
