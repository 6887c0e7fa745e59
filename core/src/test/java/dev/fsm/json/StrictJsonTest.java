package dev.fsm.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Strict reading of user JSON: one value, no duplicates, finite numbers, each problem placed. */
class StrictJsonTest {

  private static String refusal(String text) {
    try {
      StrictJson.read(text);
    } catch (StrictJson.InvalidJsonException e) {
      return e.message("X");
    }
    throw new AssertionError("accepted " + text);
  }

  @Test
  void textAfterTheValueIsRefusedWhereItStarts() {
    assertThat(refusal("{\"a\":1}, \"b\":2}")).isEqualTo(
        "X is not valid JSON at column 8: more text follows the JSON value; give exactly one");
    assertThat(refusal("{\"a\":1} {\"b\":2}")).isEqualTo(
        "X is not valid JSON at column 9: more text follows the JSON value; give exactly one");
    assertThat(refusal("{}\n\n  x")).startsWith("X is not valid JSON at line 3, column 3: ");
  }

  @Test
  void aLoneSurrogateEscapeIsRefusedNotStoredAsAQuestionMark() throws Exception {
    // The JSON text holds the six characters of each escape; Java sees them as \\u here.
    assertThat(refusal("{\"a\": \"x\\ud800\"}")).isEqualTo("X is not valid JSON at column 7:"
        + " a string holds a lone UTF-16 surrogate \\ud800, which no UTF-8 text can hold; a"
        + " surrogate escape stands only in a pair, such as \\ud83d\\ude9a");
    assertThat(refusal("{\"k\\udc00\": 1}")).contains("lone UTF-16 surrogate \\udc00");
    assertThat(refusal("[\"\\ude9a\\ud83d\"]")).contains("surrogate \\ude9a");
    assertThat(StrictJson.read("{\"truck\": \"\\ud83d\\ude9a\"}").get("truck").asText())
        .isEqualTo("\ud83d\ude9a");
  }

  @Test
  void numbersBeyondADoubleAreRefusedNotTurnedIntoStrings() {
    assertThat(refusal("{\"n\":1e999}")).isEqualTo("X is not valid JSON at column 6: the number"
        + " 1e999 is too large; numbers must fit a double (about 1.8e308)");
    assertThat(refusal("{\"n\":-1E400}")).startsWith("X is not valid JSON at column 6: ");
    assertThat(refusal("{\"n\":NaN}")).startsWith("X is not valid JSON at column ")
        .endsWith(": Non-standard token 'NaN'");
  }

  @Test
  void duplicateKeysAndDeepNestingAreRefused() {
    assertThat(refusal("{\"a\":1,\"a\":2}")).startsWith("X is not valid JSON at column ")
        .contains("Duplicate field 'a'");
    String deep = "{\"a\":" + "[".repeat(StrictJson.MAX_DEPTH + 1)
        + "]".repeat(StrictJson.MAX_DEPTH + 1) + "}";
    assertThat(refusal(deep)).isEqualTo("X is not valid JSON at column 506: Document nesting"
        + " depth (501) exceeds the maximum allowed (500)");
    assertThat(refusal("{\"n\": 1" + "0".repeat(2000) + "}")).startsWith("X is not valid JSON at"
        + " column ").endsWith(": Number value length (2001) exceeds the maximum allowed (1000)");
  }

  @Test
  void cutOffAndEmptyTextIsRefusedWithoutJacksonNoise() {
    assertThat(refusal("{\"event\": \"declined\", ")).startsWith("X is not valid JSON at column")
        .contains("end-of-input").doesNotContain("Source").doesNotContain("\n");
    assertThat(refusal("   ")).isEqualTo("X is not valid JSON: there is no JSON value");
  }

  @Test
  void goodJsonKeepsItsValuesExactly() throws Exception {
    assertThat(StrictJson.read("{\"a\": [1, 2.50, 1e-999, 123456789012345678901234567890],"
        + " \"b\": {\"c\": null, \"d\": true, \"e\": \"x\"}}").toString()).isEqualTo(
        "{\"a\":[1,2.50,1E-999,123456789012345678901234567890],"
            + "\"b\":{\"c\":null,\"d\":true,\"e\":\"x\"}}");
    assertThatThrownBy(() -> StrictJson.read("[1] [2]"))
        .isInstanceOf(StrictJson.InvalidJsonException.class);
  }
}
