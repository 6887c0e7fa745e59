package dev.fsm.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.diagnostic.Diagnostic;
import dev.fsm.validate.Validator;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** YAML syntax errors in words, at the line of the mistake rather than where SnakeYAML stopped. */
class YamlSyntaxTest {

  private static final Path FILE = Path.of("machines/order.yaml");

  private static List<String> errors(String yaml) {
    return Validator.check(FILE, yaml).diagnostics().stream().map(Diagnostic::format).toList();
  }

  @Test
  void aKeyWithoutItsColonIsNamedOnItsOwnLine() {
    assertThat(errors("""
        machine: order
        states
          pay:
            run: builtin:noop
            on: {ok: done}
          done: {final: completed}
        """)).containsExactly("machines/order.yaml:2:7: error: `states` is not followed by `:`"
            + " (write `states:` for a key)");
  }

  @Test
  void aNestedKeyWithoutItsColon() {
    assertThat(errors("""
        machine: order
        states:
          pay
            run: builtin:noop
          done: {final: completed}
        """)).containsExactly("machines/order.yaml:3:6: error: `pay` is not followed by `:`"
            + " (write `pay:` for a key)");
  }

  @Test
  void aLastKeyWithoutItsColon() {
    assertThat(errors("""
        machine: order
        states:
          done: {final: completed}
        description
        """)).containsExactly("machines/order.yaml:4:12: error: `description` is not followed"
            + " by `:` (write `description:` for a key)");
  }

  @Test
  void aKeyIndentedUnderAValue() {
    assertThat(errors("""
        machine: order
        states:
          pay:
            run: builtin:noop
              on: {ok: done}
          done: {final: completed}
        """)).containsExactly("machines/order.yaml:5:7: error: `on:` is indented deeper than"
            + " `run:` on line 4, whose value is on its line already (line `on:` up with the key"
            + " it belongs with)");
  }

  @Test
  void aKeyIndentedToNoLevel() {
    assertThat(errors("""
        machine: order
        states:
          pay: {run: builtin:noop, on: {ok: done}}
         done: {final: completed}
        """)).containsExactly("machines/order.yaml:4:2: error: `done:` is indented to column 2,"
            + " which lines up with no key above it (indent it exactly as far as the other keys"
            + " of its mapping)");
  }

  @Test
  void aTabInTheIndentation() {
    assertThat(errors("machine: order\nstates:\n\tdone: {final: completed}\n"))
        .containsExactly("machines/order.yaml:3:1: error: a tab in the indentation; YAML indents"
            + " with spaces only (replace the tab with spaces)");
  }

  @Test
  void anUnclosedQuoteIsShownWhereItOpens() {
    assertThat(errors("""
        machine: order
        states:
          pay:
            run: "scripts/charge.sh --currency EUR
            on: {ok: done}
          done: {final: completed}
        """)).containsExactly("machines/order.yaml:4:10: error: the quote `\"` opened here is"
            + " never closed (end the value with \"; write a \" inside it as \\\")");
  }

  @Test
  void anUnclosedBraceIsShownWhereItOpens() {
    assertThat(errors("""
        machine: order
        states:
          pay:
            run: builtin:noop
            on: {ok: done
          done: {final: completed}
        """)).containsExactly("machines/order.yaml:5:9: error: the `{` opened here is never"
            + " closed (close it with `}` on the same line, or write its items as indented"
            + " lines)");
  }

  @Test
  void anUnclosedBracketIsShownWhereItOpens() {
    assertThat(errors("""
        machine: order
        states:
          pay:
            run: [scripts/charge.sh, --currency, EUR
            on: {ok: done}
          done: {final: completed}
        """)).containsExactly("machines/order.yaml:4:10: error: the `[` opened here is never"
            + " closed (close it with `]` on the same line, or write its items as indented"
            + " lines)");
  }

  @Test
  void aBraceLeftOpenAtTheEndOfTheFileIsShownWhereItOpens() {
    assertThat(errors("machine: order\nstates: {\n")).containsExactly("machines/order.yaml:2:9:"
        + " error: the `{` opened here is never closed (close it with `}` on the same line, or"
        + " write its items as indented lines)");
  }

  @Test
  void aBracketLeftOpenAtTheEndOfTheFileIsShownWhereItOpens() {
    String neverClosed = " error: the `[` opened here is never closed (close it with `]` on the"
        + " same line, or write its items as indented lines)";
    assertThat(errors("machine: order\nstates: [\n"))
        .containsExactly("machines/order.yaml:2:9:" + neverClosed);
    assertThat(errors("machine: [\n")).containsExactly("machines/order.yaml:1:10:" + neverClosed);
    assertThat(errors("machine: order\nstates:\n  a: [\n"))
        .containsExactly("machines/order.yaml:3:6:" + neverClosed);
  }

  @Test
  void aBracketLeftOpenAfterItsItemsAtTheEndOfTheFile() {
    assertThat(errors("machine: order\nstates: {done: {final: completed}, a: [b, {c: d"))
        .containsExactly("machines/order.yaml:2:43: error: the `{` opened here is never"
            + " closed (close it with `}` on the same line, or write its items as indented"
            + " lines)");
  }

  @Test
  void aColonInsideAValue() {
    assertThat(errors("""
        machine: order
        states:
          pay:
            run: echo total: 5
            on: {ok: done}
          done: {final: completed}
        """)).containsExactly("machines/order.yaml:4:20: error: `: ` inside a value; YAML reads"
            + " it as the start of another key (quote the value, like run: \"echo a: b\")");
  }

  @Test
  void aDuplicateKeyNamesBothLines() {
    assertThat(errors("""
        machine: order
        states:
          pay:
            run: builtin:noop
            run: builtin:noop
            on: {ok: done}
          done: {final: completed}
        """)).containsExactly("machines/order.yaml:5:5: error: duplicate key `run` in state"
            + " `pay` (first defined at line 4)");
  }

  @Test
  void aKeyAndValueWithoutTheColonBetween() {
    assertThat(errors("""
        machine order
        states:
          done: {final: completed}
        """)).containsExactly("machines/order.yaml:1:8: error: `machine order` is not followed"
            + " by `:` (write `machine: order` for a key and its value)");
  }

  @Test
  void aKeyAmongListItems() {
    assertThat(errors("""
        machine: order
        states:
          - pay
          done: {final: completed}
        """)).containsExactly("machines/order.yaml:4:3: error: `done:` follows list items"
            + " (`- ...`) at the same indent; a block is a list or a mapping, not both (make the"
            + " items keys (`name: ...`) or this line an item)");
  }

  @Test
  void aBraceThatClosesNothing() {
    assertThat(errors("""
        machine: order
        states:
          done: {final: completed}}
        """)).containsExactly("machines/order.yaml:3:27: error: a `}` that closes nothing"
            + " (remove it, or add the `{` it belongs to)");
  }
}
