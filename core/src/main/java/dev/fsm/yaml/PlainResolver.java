package dev.fsm.yaml;

import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Resolves only what machine files need from YAML's implicit typing: empty and {@code ~}/{@code
 * null} values, and the merge key {@code <<}. Every other scalar stays a string, to be typed by
 * the field that holds it ({@link Scalars}); running YAML 1.1's typing regexes on each scalar
 * only to ignore them cost a tenth of the start-up of {@code fsm validate}.
 */
final class PlainResolver extends Resolver {

  /** No YAML 1.1 typing regexes to compile: {@link #resolve} does not use them. */
  @Override
  protected void addImplicitResolvers() {}

  @Override
  public Tag resolve(NodeId kind, String value, boolean implicit) {
    if (kind == NodeId.mapping) {
      return Tag.MAP;
    }
    if (kind == NodeId.sequence) {
      return Tag.SEQ;
    }
    if (!implicit) {
      return Tag.STR;
    }
    return switch (value) {
      case "", "~", "null", "Null", "NULL" -> Tag.NULL;
      case "<<" -> Tag.MERGE;
      default -> Tag.STR;
    };
  }
}
