package dev.fsm.engine;

import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.StoreOperations;
import dev.fsm.task.Task;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runner tests' way to start tasks: writes a machine's YAML beside them and starts N of it. */
final class MachineTasks {

  private MachineTasks() {}

  /** Starts {@code count} tasks with empty contexts on the machine {@code yaml} defines. */
  static List<Task> start(StoreOperations ops, Path dir, String yaml, int count)
      throws IOException {
    String name = yaml.lines().filter(l -> l.startsWith("machine:")).findFirst().orElseThrow()
        .substring(8).strip();
    Path file = dir.resolve(name + ".yaml");
    Files.writeString(file, yaml);
    List<NewTask> tasks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      tasks.add(new NewTask(null, "{}", null));
    }
    return ops.start(new MachineSource(name, file, yaml), tasks);
  }
}
