package dev.fsm.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShellWordsTest {

  @Test
  void splitsOnAnyWhitespace() {
    assertThat(ShellWords.split("scripts/charge.sh --currency EUR"))
        .containsExactly("scripts/charge.sh", "--currency", "EUR");
    assertThat(ShellWords.split("  a \t b\n c  ")).containsExactly("a", "b", "c");
    assertThat(ShellWords.split("")).isEmpty();
    assertThat(ShellWords.split("   ")).isEmpty();
  }

  @Test
  void singleQuotesKeepEverythingLiterally() {
    assertThat(ShellWords.split("echo 'a b' 'c\\d' '$HOME'"))
        .containsExactly("echo", "a b", "c\\d", "$HOME");
  }

  @Test
  void doubleQuotesKeepSpacesAndAllowSomeEscapes() {
    assertThat(ShellWords.split("echo \"a b\" \"say \\\"hi\\\"\" \"back\\\\slash\" \"\\n\""))
        .containsExactly("echo", "a b", "say \"hi\"", "back\\slash", "\\n");
  }

  @Test
  void emptyQuotesMakeAnEmptyWord() {
    assertThat(ShellWords.split("prog '' \"\"")).containsExactly("prog", "", "");
  }

  @Test
  void quotesJoinWithNeighbouringText() {
    assertThat(ShellWords.split("--name='big box'x \"a\"'b'c"))
        .containsExactly("--name=big boxx", "abc");
  }

  @Test
  void backslashEscapesOutsideQuotes() {
    assertThat(ShellWords.split("a\\ b c\\'d \\\"")).containsExactly("a b", "c'd", "\"");
  }

  @Test
  void expandsNothing() {
    assertThat(ShellWords.split("ls ~ $HOME *.txt `date` $(id) a;b a|b"))
        .containsExactly("ls", "~", "$HOME", "*.txt", "`date`", "$(id)", "a;b", "a|b");
  }

  @Test
  void unclosedQuotesAndTrailingBackslashAreErrors() {
    assertThatThrownBy(() -> ShellWords.split("echo 'oops"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("unclosed single quote");
    assertThatThrownBy(() -> ShellWords.split("echo \"oops"))
        .hasMessage("unclosed double quote");
    assertThatThrownBy(() -> ShellWords.split("echo \"oops\\\""))
        .hasMessage("unclosed double quote");
    assertThatThrownBy(() -> ShellWords.split("echo oops\\"))
        .hasMessage("a backslash ends the command");
  }
}
