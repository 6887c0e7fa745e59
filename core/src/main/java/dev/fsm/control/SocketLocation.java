package dev.fsm.control;

import dev.fsm.FsmException;
import dev.fsm.files.StoreFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where a store's control socket lives. The rule: {@code control.sock} in the store folder when
 * its real path fits a Unix socket address (at most {@value #MAX_PATH_BYTES} bytes, the smallest
 * limit among Linux and macOS). Otherwise the socket is {@code <16 hex of SHA-256 of the store's
 * real path>.sock} in a private folder, {@code $XDG_RUNTIME_DIR/fsm/} or else {@code
 * /tmp/fsm-<user>/} (mode 0700, checked to be ours), and the store folder holds {@code
 * control.addr}, one line naming it. Clients read {@code control.addr} when present and try
 * {@code control.sock} otherwise, so they never need to agree with the owner on environment
 * variables.
 */
final class SocketLocation {

  /** The socket's name in the store folder. */
  static final String SOCKET = "control.sock";
  /** The file in the store folder naming a socket that lives elsewhere. */
  static final String POINTER = "control.addr";
  static final int MAX_PATH_BYTES = 103;

  private SocketLocation() {}

  /** Where a client should connect, or null when nothing says an owner is there. */
  static Path forClient(Path storeFolder) {
    try {
      String pointed = Files.readString(storeFolder.resolve(POINTER), StandardCharsets.UTF_8)
          .strip();
      if (!pointed.isEmpty()) {
        return Path.of(pointed);
      }
    } catch (NoSuchFileException e) {
      // The usual case: the socket sits beside the store.
    } catch (IOException e) {
      return null;
    }
    Path beside = storeFolder.resolve(SOCKET);
    if (fits(beside)) {
      return beside;
    }
    // Reached by a long alias of a short real path.
    try {
      Path real = storeFolder.toRealPath().resolve(SOCKET);
      return fits(real) ? real : null;
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Where the owner binds, creating the private folder when the socket cannot sit beside the
   * store, and writing or removing {@code control.addr} to match.
   */
  static Path forOwner(Path storeFolder) throws IOException {
    Path real = storeFolder.toRealPath();
    Path beside = real.resolve(SOCKET);
    Path pointer = real.resolve(POINTER);
    if (fits(beside)) {
      Files.deleteIfExists(pointer);
      return beside;
    }
    Path socket = privateFolder().resolve(hash(real.toString()) + ".sock");
    if (!fits(socket)) {
      throw new FsmException("cannot place the control socket for store " + real + ": " + socket
          + " is too long for a socket address; set XDG_RUNTIME_DIR to a short folder");
    }
    StoreFiles.writeAtomically(pointer, (socket + "\n").getBytes(StandardCharsets.UTF_8));
    return socket;
  }

  static boolean fits(Path socket) {
    return socket.toString().getBytes(StandardCharsets.UTF_8).length <= MAX_PATH_BYTES;
  }

  /** A folder only this user can enter; refuses one that someone else made or opened up. */
  private static Path privateFolder() throws IOException {
    String runtime = System.getenv("XDG_RUNTIME_DIR");
    Path folder = runtime != null && !runtime.isBlank() && Path.of(runtime).isAbsolute()
        && Files.isDirectory(Path.of(runtime))
        ? Path.of(runtime, "fsm")
        : Path.of("/tmp", "fsm-" + System.getProperty("user.name"));
    try {
      Files.createDirectory(folder,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (FileAlreadyExistsException e) {
      // Checked below like a new one.
    }
    PosixFileAttributes attributes = Files.readAttributes(folder, PosixFileAttributes.class,
        LinkOption.NOFOLLOW_LINKS);
    if (!attributes.isDirectory()) {
      throw notOurs(folder);
    }
    // A file we create is owned by us: the one portable way to learn our user without a lookup.
    Path probe = Files.createTempFile(folder, ".owner", "");
    try {
      if (!attributes.owner().equals(Files.getOwner(probe))) {
        throw notOurs(folder);
      }
    } finally {
      Files.deleteIfExists(probe);
    }
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
    return folder;
  }

  private static FsmException notOurs(Path folder) {
    return new FsmException("cannot place the control socket in " + folder
        + ": it is not a folder of this user; remove it, or set XDG_RUNTIME_DIR");
  }

  private static String hash(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
