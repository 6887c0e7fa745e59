package dev.fsm.yaml;

import dev.fsm.diagnostic.DidYouMean;
import dev.fsm.diagnostic.Position;
import dev.fsm.diagnostic.Problems;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A YAML mapping read as ordered string keys: merge keys ({@code <<: *base}) applied, duplicate
 * and non-string keys reported. SnakeYAML's {@code compose()} does neither, so this does.
 */
final class Mapping {

  /** One key and its value, with the key's node for positions. */
  record Entry(String key, Node keyNode, Node value) {
    Position keyAt() {
      return YamlFile.at(keyNode);
    }

    Position valueAt() {
      return YamlFile.at(value);
    }
  }

  private final Map<String, Entry> entries;

  private Mapping(Map<String, Entry> entries) {
    this.entries = entries;
  }

  /** Reads a mapping node, reporting duplicate keys in {@code where}. */
  static Mapping of(MappingNode node, Problems problems, String where) {
    Map<String, Entry> entries = new LinkedHashMap<>();
    List<MappingNode> merged = new ArrayList<>();
    for (NodeTuple tuple : node.getValue()) {
      Node keyNode = tuple.getKeyNode();
      if (keyNode.getTag().equals(Tag.MERGE)) {
        collectMerges(tuple.getValueNode(), merged, problems);
        continue;
      }
      if (!(keyNode instanceof ScalarNode scalar)) {
        problems.error(YamlFile.at(keyNode), "keys " + where + " must be plain names, found "
            + Scalars.describe(keyNode));
        continue;
      }
      String key = scalar.getValue();
      Entry first = entries.get(key);
      if (first != null) {
        problems.error(YamlFile.at(keyNode), duplicateMessage(key, where),
            "first defined at line " + first.keyAt().line());
        continue;
      }
      entries.put(key, new Entry(key, keyNode, tuple.getValueNode()));
    }
    Set<MappingNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (MappingNode base : merged) {
      mergeInto(entries, base, seen);
    }
    return new Mapping(entries);
  }

  /** The entry for a key, if present. */
  Optional<Entry> get(String key) {
    return Optional.ofNullable(entries.get(key));
  }

  /** True when the key is present. */
  boolean has(String key) {
    return entries.containsKey(key);
  }

  /** Every entry in file order. */
  Collection<Entry> entries() {
    return entries.values();
  }

  /** Reports each key that is not one of {@code allowed}, suggesting the closest. */
  void rejectUnknown(List<String> allowed, Problems problems, String where) {
    for (Entry e : entries.values()) {
      if (!allowed.contains(e.key())) {
        String hint = DidYouMean.hint(e.key(), allowed);
        problems.error(e.keyAt(), "unknown key `" + e.key() + "` " + where,
            hint != null ? hint : "allowed keys: " + String.join(", ", allowed));
      }
    }
  }

  private static String duplicateMessage(String key, String where) {
    if (where.equals("in `states`")) {
      return "duplicate state `" + key + "`";
    }
    return "duplicate key `" + key + "` " + where;
  }

  private static void collectMerges(Node value, List<MappingNode> into, Problems problems) {
    if (value instanceof MappingNode m) {
      into.add(m);
    } else if (value instanceof SequenceNode s) {
      for (Node item : s.getValue()) {
        if (item instanceof MappingNode m) {
          into.add(m);
        } else {
          problems.error(YamlFile.at(item), "a merge key (`<<`) takes mappings, found "
              + Scalars.describe(item));
        }
      }
    } else {
      problems.error(YamlFile.at(value), "a merge key (`<<`) takes a mapping, found "
          + Scalars.describe(value));
    }
  }

  /** Adds a merged mapping's keys that are not already set; explicit keys win. */
  private static void mergeInto(Map<String, Entry> entries, MappingNode base, Set<MappingNode> seen) {
    if (!seen.add(base)) {
      return;
    }
    for (NodeTuple tuple : base.getValue()) {
      Node keyNode = tuple.getKeyNode();
      if (keyNode.getTag().equals(Tag.MERGE)) {
        Node v = tuple.getValueNode();
        if (v instanceof MappingNode m) {
          mergeInto(entries, m, seen);
        } else if (v instanceof SequenceNode s) {
          for (Node item : s.getValue()) {
            if (item instanceof MappingNode m) {
              mergeInto(entries, m, seen);
            }
          }
        }
      } else if (keyNode instanceof ScalarNode scalar) {
        entries.putIfAbsent(scalar.getValue(), new Entry(scalar.getValue(), keyNode,
            tuple.getValueNode()));
      }
    }
  }
}
