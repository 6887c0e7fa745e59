package dev.fsm.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * A registered machine definition. Versions are content-addressed: the same text is always the
 * same version, so registering an unchanged file again changes nothing.
 *
 * @param machine the machine's name
 * @param version the first 12 hex digits of the SHA-256 of the definition text
 * @param number 1 for the machine's first version, 2 for the next...
 * @param registered when it was first registered
 * @param definition the machine file's text
 */
public record MachineVersion(
    String machine, String version, int number, Instant registered, String definition) {

  /** The version id of a definition text. */
  public static String idOf(String definition) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256")
          .digest(definition.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
