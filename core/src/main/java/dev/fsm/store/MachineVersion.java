package dev.fsm.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

/**
 * A registered machine definition. Registering the newest version's text again changes nothing;
 * any other text, even an older version's (a rollback), becomes the next, newest version.
 *
 * @param machine the machine's name
 * @param version the version's id: the first 12 hex digits of the SHA-256 of the definition
 *     text, or, for a text registered before under another number, of {@code vN\n} and the text,
 *     so ids stay unique within a machine
 * @param number 1 for the machine's first version, 2 for the next...
 * @param registered when it was registered
 * @param definition the machine file's text
 */
public record MachineVersion(
    String machine, String version, int number, Instant registered, String definition) {

  /** The version id of a definition text registered for the first time. */
  public static String idOf(String definition) {
    return hash(definition);
  }

  /**
   * What registering {@code definition} after the {@code known} versions (oldest first) gives:
   * the newest one when its text is the same, else a new version numbered after them.
   */
  public static MachineVersion next(String machine, String definition, Instant now,
      List<MachineVersion> known) {
    if (!known.isEmpty()) {
      MachineVersion newest = known.get(known.size() - 1);
      if (newest.definition().equals(definition)) {
        return newest;
      }
    }
    int number = known.size() + 1;
    String id = idOf(definition);
    for (MachineVersion v : known) {
      if (v.version().equals(id)) {
        // A rollback to an older text: a new version, with an id of its own.
        id = hash("v" + number + "\n" + definition);
        break;
      }
    }
    return new MachineVersion(machine, id, number, now, definition);
  }

  /** True when {@link #next} made a new version rather than returning a known one. */
  public boolean isAfter(List<MachineVersion> known) {
    return known.isEmpty() || number > known.get(known.size() - 1).number();
  }

  private static String hash(String text) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
