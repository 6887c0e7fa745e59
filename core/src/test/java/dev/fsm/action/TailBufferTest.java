package dev.fsm.action;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The capped tail kept of a program's output stream. */
class TailBufferTest {

  private static void write(TailBuffer buffer, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    buffer.write(bytes, 0, bytes.length);
  }

  @Test
  void keepsEverythingUnderTheCap() {
    TailBuffer buffer = new TailBuffer(10_000);
    write(buffer, "hello ");
    write(buffer, "world");
    assertThat(buffer.text()).isEqualTo("hello world");
    assertThat(buffer.truncated()).isFalse();
  }

  @Test
  void keepsTheLastBytesOverTheCapWhateverTheWriteSizes() {
    StringBuilder all = new StringBuilder();
    TailBuffer buffer = new TailBuffer(1000);
    for (int i = 0; i < 500; i++) {
      String chunk = Integer.toString(i).repeat(i % 7 + 1) + ",";
      all.append(chunk);
      write(buffer, chunk);
      int keep = Math.min(all.length(), 1000);
      assertThat(buffer.text()).isEqualTo(all.substring(all.length() - keep));
    }
    assertThat(buffer.truncated()).isTrue();
    String big = "z".repeat(3000) + "tail";
    write(buffer, big);
    assertThat(buffer.text()).isEqualTo(big.substring(big.length() - 1000));
    write(buffer, "!");
    assertThat(buffer.text()).isEqualTo(big.substring(big.length() - 999) + "!");
  }
}
