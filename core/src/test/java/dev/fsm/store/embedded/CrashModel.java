package dev.fsm.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a store folder must hold across the crash suite's kills: the last acknowledged word per
 * key, and after a kill, each thread's unacknowledged intent, which may have landed whole or not
 * at all.
 */
final class CrashModel {

  private final Map<String, String> acked = new HashMap<>();

  /**
   * Checks the reopened store against the writer's lines and takes what it holds as the new
   * truth. Returns how many intents had landed without their acknowledgement.
   */
  int verify(EmbeddedStore store, List<String> lines, String how) {
    Map<Integer, Map<String, String>> pending = new HashMap<>();
    for (String line : lines) {
      String[] parts = line.substring(0, line.length() - 2).split(" ");
      if (parts[0].equals("I")) {
        Map<String, String> intent = new LinkedHashMap<>();
        for (int i = 2; i < parts.length; i++) {
          int eq = parts[i].indexOf('=');
          intent.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
        }
        pending.put(Integer.parseInt(parts[1]), intent);
      } else if (parts[0].equals("A")) {
        acked.putAll(pending.remove(Integer.parseInt(parts[1])));
      }
    }
    int landed = 0;
    for (Map<String, String> intent : pending.values()) {
      int applied = 0;
      int unchanged = 0;
      for (Map.Entry<String, String> e : intent.entrySet()) {
        String before = acked.getOrDefault(e.getKey(), Expect.initial(e.getKey()));
        String seen = Expect.observe(store, e.getKey());
        assertThat(seen).as("%s after a writer %s: neither acknowledged nor intended", e.getKey(),
            how).isIn(before, e.getValue());
        applied += seen.equals(e.getValue()) ? 1 : 0;
        unchanged += seen.equals(before) ? 1 : 0;
      }
      assertThat(applied == intent.size() || unchanged == intent.size())
          .as("intent %s after a writer %s: half applied", intent, how).isTrue();
      if (applied == intent.size() && unchanged < intent.size()) {
        acked.putAll(intent);
        landed++;
      }
    }
    Set<String> pendingKeys = new HashSet<>();
    pending.values().forEach(p -> pendingKeys.addAll(p.keySet()));
    for (Map.Entry<String, String> e : acked.entrySet()) {
      if (!pendingKeys.contains(e.getKey())) {
        assertThat(Expect.observe(store, e.getKey()))
            .as("%s, acknowledged, after a writer %s", e.getKey(), how).isEqualTo(e.getValue());
      }
    }
    List<Task> all = store.list(TaskQuery.all(Integer.MAX_VALUE));
    assertThat(all).extracting(Task::id).as("no task that was never intended")
        .allMatch(acked::containsKey);
    return landed;
  }

  /** Ids of the tasks a new owner must be able to claim at once: all runnable ones. */
  List<String> runnable() {
    return acked.entrySet().stream()
        .filter(e -> e.getValue().split(",").length > 1
            && e.getValue().split(",")[1].equals(TaskStatus.RUNNABLE.word()))
        .map(Map.Entry::getKey).sorted().toList();
  }
}
