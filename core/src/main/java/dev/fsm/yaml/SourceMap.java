package dev.fsm.yaml;

import dev.fsm.diagnostic.Position;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Where each part of a machine was written, so checks on the model can point at the file.
 * Parts are named by paths such as {@code states/ship/on/ok}.
 */
public final class SourceMap {

  private final Map<String, Position> positions = new HashMap<>();
  private final Set<String> damaged = new HashSet<>();

  /** The path of a state's name. */
  public static String state(String state) {
    return "states/" + state;
  }

  /** The path of a state's setting, e.g. {@code run}. */
  public static String stateKey(String state, String key) {
    return "states/" + state + "/" + key;
  }

  /** The path of the target of a state's edge. */
  public static String edge(String state, String event) {
    return "states/" + state + "/on/" + event;
  }

  void put(String path, Position at) {
    positions.put(path, at);
  }

  /** Marks a part whose value had errors, so later checks do not pile more on it. */
  void damage(String path) {
    damaged.add(path);
  }

  /** True when the part had errors already reported. */
  public boolean isDamaged(String path) {
    return damaged.contains(path);
  }

  /** True when the file wrote the part, as opposed to its taking a default. */
  public boolean has(String path) {
    return positions.containsKey(path);
  }

  /** Where the part was written, or the start of the file when unknown. */
  public Position at(String path) {
    return positions.getOrDefault(path, Position.START);
  }
}
