package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile machine files through the real jar: one clear line each, exit 1, no stack trace. */
class HostileInputIT {

  @TempDir Path dir;

  @Test
  void eachHostileFileGetsOneClearErrorLine() throws Exception {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("huge.yaml", ("machine: x\n# " + "a".repeat(2 << 20) + "\n").getBytes(
        StandardCharsets.UTF_8));
    StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x]\n");
    for (char c = 'b'; c <= 'k'; c++) {
      bomb.append(c).append(": &").append(c).append(" [");
      bomb.append(("*" + (char) (c - 1) + ", ").repeat(8)).append("*").append((char) (c - 1))
          .append("]\n");
    }
    files.put("bomb.yaml", bomb.toString().getBytes(StandardCharsets.UTF_8));
    files.put("deep.yaml", ("a: " + "[".repeat(200) + "]".repeat(200) + "\n").getBytes(
        StandardCharsets.UTF_8));
    byte[] garbage = new byte[4096];
    new Random(7).nextBytes(garbage);
    files.put("garbage.yaml", garbage);
    files.put("empty.yaml", new byte[0]);
    files.put("tag.yaml", "machine: !!javax.script.ScriptEngineManager [x]\nstates: {}\n"
        .getBytes(StandardCharsets.UTF_8));
    files.put("list.yaml", "- machine: x\n- states: {}\n".getBytes(StandardCharsets.UTF_8));
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      Files.write(dir.resolve(file.getKey()), file.getValue());
      FsmJar.Result r = FsmJar.run(dir, "validate", file.getKey());
      assertThat(r.exit()).as(file.getKey()).isEqualTo(1);
      assertThat(r.outLines()).as(file.getKey()).hasSize(1);
      assertThat(r.outLines().get(0)).as(file.getKey()).startsWith(file.getKey() + ":")
          .contains(": error: ");
      assertThat(r.out() + r.err()).as(file.getKey()).doesNotContain("Exception")
          .doesNotContain("\tat ");
    }
  }
}
