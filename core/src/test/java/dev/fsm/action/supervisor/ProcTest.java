package dev.fsm.action.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading processes from {@code /proc}, at the moments Linux makes it hard. */
class ProcTest {

  private static final byte[] MARK = "FSM_PROC_TEST=1".getBytes(StandardCharsets.UTF_8);

  @Test
  void aMarkedProcessIsFoundWhileItExecsAndExits() throws Exception {
    assumeTrue(Proc.PRESENT);
    // Each child forks, execs and exits: the moments /proc shows an empty environment.
    ProcessBuilder builder = new ProcessBuilder("sh", "-c",
        "i=0; while [ $i -lt 1500 ]; do i=$((i+1)); /bin/true; done");
    builder.environment().put("FSM_PROC_TEST", "1");
    Process spawner = builder.start();
    List<Long> missed = new ArrayList<>();
    int looked = 0;
    try {
      while (spawner.isAlive()) {
        for (ProcessHandle child : spawner.descendants().toList()) {
          Path entry = Proc.entry(child.pid());
          looked++;
          if (!Proc.marked(entry, MARK) && !Proc.ended(Proc.statFields(entry))) {
            missed.add(child.pid());
          }
        }
      }
    } finally {
      spawner.destroyForcibly();
    }
    assertThat(looked).isPositive();
    assertThat(missed).as("marked children read as unmarked while running").isEmpty();
  }

  @Test
  void anUnmarkedProcessAndAKernelThreadAreNotMarked() {
    assumeTrue(Proc.PRESENT);
    assertThat(Proc.marked(Proc.entry(ProcessHandle.current().pid()), MARK)).isFalse();
    // kthreadd, pid 2, where the kernel's threads are visible (not in every container).
    Path kthreadd = Proc.entry(2);
    String[] fields = Proc.statFields(kthreadd);
    if (fields != null) {
      assertThat(Proc.marked(kthreadd, MARK)).isFalse();
    }
  }
}
