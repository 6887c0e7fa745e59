package dev.fsm.files;

import dev.fsm.FsmException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Every file an embedded store writes goes through here (SPEC section 7): opened without
 * following a symbolic link, created with mode 0600, temporaries created anew. Whoever can plant
 * a link in a store folder must not be able to make fsm, often run by a service account or root,
 * truncate or overwrite the file it points to.
 */
public final class StoreFiles {

  /** Owner read and write: journals and snapshots hold task contexts, which may be secrets. */
  public static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString(
      "rw-------");
  /** Owner only. */
  public static final Set<PosixFilePermission> FOLDER_MODE = PosixFilePermissions.fromString(
      "rwx------");

  private static final boolean POSIX =
      Path.of("").getFileSystem().supportedFileAttributeViews().contains("posix");

  private StoreFiles() {}

  /**
   * Opens {@code file} without following a link; when the options create it, it is created
   * 0600.
   *
   * @throws FsmException when {@code file} is a symbolic link, naming it and what to do
   */
  public static FileChannel open(Path file, OpenOption... options) throws IOException {
    Set<OpenOption> all = new LinkedHashSet<>(Arrays.asList(options));
    all.add(LinkOption.NOFOLLOW_LINKS);
    boolean creates = all.contains(StandardOpenOption.CREATE)
        || all.contains(StandardOpenOption.CREATE_NEW);
    try {
      return creates && POSIX
          ? FileChannel.open(file, all, PosixFilePermissions.asFileAttribute(FILE_MODE))
          : FileChannel.open(file, all, new FileAttribute<?>[0]);
    } catch (IOException e) {
      // ELOOP comes as a plain IOException from FileChannel.open.
      if (!(e instanceof AccessDeniedException) && Files.isSymbolicLink(file)) {
        throw linkRefused(file);
      }
      throw e;
    }
  }

  /**
   * Creates {@code file} anew, 0600, for writing: a file or link left there (by a crash, or by
   * someone else) is deleted first, never followed.
   */
  public static FileChannel createFresh(Path file, OpenOption... options) throws IOException {
    Files.deleteIfExists(file);
    OpenOption[] all = Arrays.copyOf(options, options.length + 1);
    all[options.length] = StandardOpenOption.CREATE_NEW;
    return open(file, all);
  }

  /**
   * Replaces {@code file} with {@code bytes} atomically through a fresh temporary beside it: a
   * crash leaves the old file or the new one, and a link in either place is replaced, not
   * followed.
   */
  public static void writeAtomically(Path file, byte[] bytes) throws IOException {
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    try (FileChannel out = createFresh(temp, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      while (b.hasRemaining()) {
        out.write(b);
      }
      out.force(true);
    }
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * Makes a folder inside a store folder: 0700 when created; an existing one must be a folder,
   * not a link to one, since files are created in it by name.
   */
  public static void createFolder(Path folder) throws IOException {
    if (Files.isSymbolicLink(folder)) {
      throw linkRefused(folder);
    }
    if (Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Path parent = folder.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try {
      if (POSIX) {
        Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(FOLDER_MODE));
      } else {
        Files.createDirectory(folder);
      }
    } catch (FileAlreadyExistsException e) {
      // Another command creating the same store at the same moment; a link is still refused.
      if (Files.isSymbolicLink(folder)) {
        throw linkRefused(folder);
      }
      if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
        throw e;
      }
    }
  }

  /** Takes away what {@code mode} gives beyond {@code wanted}, never following a link. */
  static void tighten(Path file, Set<PosixFilePermission> mode, Set<PosixFilePermission> wanted)
      throws IOException {
    if (POSIX && !wanted.containsAll(mode)) {
      Set<PosixFilePermission> kept = new LinkedHashSet<>(mode);
      kept.retainAll(wanted);
      Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
          .setPermissions(kept);
    }
  }

  /** Whether permissions can be set at all here (not on Windows). */
  static boolean posix() {
    return POSIX;
  }

  /** A symbolic link where a store file or folder belongs. */
  public static FsmException linkRefused(Path file) {
    String target;
    try {
      target = " (pointing to " + Files.readSymbolicLink(file) + ")";
    } catch (IOException | UnsupportedOperationException e) {
      target = "";
    }
    return new FsmException(file + " is a symbolic link" + target + "; fsm never writes store"
        + " files through links, since whoever planted it could make fsm overwrite the file it"
        + " points to: remove it (rm " + file + ") and check who can write to " + file
        .toAbsolutePath().getParent());
  }
}
