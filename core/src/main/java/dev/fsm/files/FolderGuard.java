package dev.fsm.files;

import dev.fsm.FsmException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The checks a store folder passes before fsm writes in it (SPEC section 7): created 0700; one
 * that other users can write, or that belongs to another user, is refused, since they could
 * plant links or files in it; one from an earlier version (0755 folders, 0644 files) is
 * tightened to 0700 and 0600, as its journal may hold secrets.
 */
public final class FolderGuard {

  /** The store's own folders, checked as the store folder is. */
  private static final List<String> SUBFOLDERS = List.of("journal", "programs");
  private static final Set<PosixFilePermission> WRITABLE_BY_OTHERS =
      EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

  private FolderGuard() {}

  /**
   * Creates the store folder 0700 when missing, else checks it; then checks its subfolders and
   * tightens what others may read. The folder itself may be reached through a link the user
   * made (a store on another disk); nothing inside it is.
   *
   * @throws FsmException naming the folder and the command that fixes it
   */
  public static void secure(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      StoreFiles.createFolder(folder);
    }
    if (!StoreFiles.posix()) {
      return;
    }
    Path real = folder.toRealPath();
    check(folder, real, Files.readAttributes(real, PosixFileAttributes.class));
    for (String name : SUBFOLDERS) {
      Path sub = real.resolve(name);
      if (Files.isSymbolicLink(sub)) {
        throw StoreFiles.linkRefused(folder.resolve(name));
      }
      if (Files.isDirectory(sub, LinkOption.NOFOLLOW_LINKS)) {
        check(folder.resolve(name), sub, Files.readAttributes(sub, PosixFileAttributes.class,
            LinkOption.NOFOLLOW_LINKS));
        tightenFiles(sub);
      }
    }
    tightenFiles(real);
  }

  /** Checks a folder, named to the user as {@code shown}, at its real path {@code real}. */
  private static void check(Path shown, Path real, PosixFileAttributes attributes)
      throws IOException {
    Set<PosixFilePermission> mode = attributes.permissions();
    UserPrincipal me = currentUser(shown);
    if (me != null && !me.equals(attributes.owner())) {
      throw new FsmException("store folder " + shown + " belongs to user "
          + attributes.owner().getName() + ", not to " + me.getName() + ", who runs fsm: its files"
          + " are the owner's alone; run fsm as " + attributes.owner().getName()
          + " (e.g. sudo -u " + attributes.owner().getName() + " fsm ...)");
    }
    if (mode.stream().anyMatch(WRITABLE_BY_OTHERS::contains)) {
      throw new FsmException("store folder " + shown + " can be written by other users (mode "
          + PosixFilePermissions.toString(mode) + "), who could plant links in it to make fsm"
          + " overwrite other files; make it private with `chmod go-w " + shown + "` (fsm"
          + " creates store folders with mode 0700)");
    }
    StoreFiles.tighten(real, mode, StoreFiles.FOLDER_MODE);
  }

  /** Regular files in the folder lose group and other permissions; links are left alone. */
  private static void tightenFiles(Path folder) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
      for (Path entry : entries) {
        try {
          PosixFileAttributes a = Files.readAttributes(entry, PosixFileAttributes.class,
              LinkOption.NOFOLLOW_LINKS);
          if (a.isRegularFile()) {
            StoreFiles.tighten(entry, a.permissions(), StoreFiles.FILE_MODE);
          }
        } catch (NoSuchFileException e) {
          // The owner renamed or deleted it since the listing (a temporary file); nothing to do.
        }
      }
    }
  }

  /** The user running fsm, or null where it has no name the system knows. */
  private static UserPrincipal currentUser(Path any) {
    try {
      return any.getFileSystem().getUserPrincipalLookupService()
          .lookupPrincipalByName(System.getProperty("user.name"));
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }
}
