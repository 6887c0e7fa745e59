package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each placeholder, what it leaves alone, and messages of one cause falling together. */
class ErrorMasksTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      connection to 10.0.0.7:5432 refused after 3012 ms | connection to <ip>:<n> refused after <n> ms
      took 3012ms, limit 2.5s                           | took <n>ms, limit <n>s
      timed out after p95 = 2s6ms (38 samples)          | timed out after p95 = <n>s (<n> samples)
      slept 1h30m15s then 1h                            | slept <n>h then <n>h
      ran 250ms                                         | ran <n>ms
      task 01JDQ8Z5X4K2M9T7V3B6N1C0RE is stuck          | task <id> is stuck
      request 123e4567-e89b-12d3-a456-426614174000 lost  | request <id> lost
      order order-0042 has no address                   | order <id> has no address
      cannot open /var/lib/fsm/tasks/42.json: denied    | cannot open <path>: denied
      wrote ./out/report.csv and ~/x.log                 | wrote <path> and <path>
      commit 9fceb02d0ae598e95dc970b74767f19372d61af8 bad | commit <hex> bad
      segfault at 0x7ffd1c2a                             | segfault at <hex>
      GET https://api.example.com/v2/pay?id=7 gave 503   | GET <url> gave <n>
      user "Zoë Ünal" not found                          | user "<text>" not found
      value 'abc 12' is not a date                       | value '<text>' is not a date
      """)
  void masksTheVariableParts(String message, String masked) {
    assertThat(ErrorMasks.mask(message)).isEqualTo(masked);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      card declined
      utf8 decode failed in e2e step v2
      can't read/write the ledger
      the action emitted event `nope`, but state `pay` has no edge for it; its events: ok
      deadbeef is not a word with digits
      """)
  void leavesFixedWordsAlone(String message) {
    assertThat(ErrorMasks.mask(message)).isEqualTo(message);
  }

  @Test
  void threeCausesWithVaryingPartsMakeThreePatterns() {
    assertThat(new String[] {
        ErrorMasks.mask("connection to 10.0.0.7:5432 refused after 3012 ms"),
        ErrorMasks.mask("connection to 10.0.0.9:5432 refused after 15 ms"),
        ErrorMasks.mask("file /data/in/a-17.csv: line 3: bad amount \"12,x\""),
        ErrorMasks.mask("file /data/in/b-993.csv: line 41: bad amount \"--\""),
        ErrorMasks.mask("order ord-12345678 unknown (request 7f3a9c2e1b)"),
        ErrorMasks.mask("order ord-00000042 unknown (request 0a1b2c3d4e)")})
        .containsExactly(
            "connection to <ip>:<n> refused after <n> ms",
            "connection to <ip>:<n> refused after <n> ms",
            "file <path>: line <n>: bad amount \"<text>\"",
            "file <path>: line <n>: bad amount \"<text>\"",
            "order <id> unknown (request <hex>)",
            "order <id> unknown (request <hex>)");
  }

  @Test
  void aTimeoutsMessageKeepsItsShape() {
    assertThat(ErrorMasks.mask("timed out after 30s; attempt 2 of 8 within 4h, retrying in"
        + " 10m")).isEqualTo("timed out after <n>s; attempt <n> of <n> within <n>h, retrying in"
        + " <n>m");
  }
}
