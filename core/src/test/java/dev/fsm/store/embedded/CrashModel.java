package dev.fsm.store.embedded;

import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.util.ArrayList;
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

  /**
   * What one check after a kill found.
   *
   * @param acknowledged changes the writer acknowledged in its life
   * @param checked acknowledged words compared with the store
   * @param lost acknowledged words the store no longer holds
   * @param landed unacknowledged intents that had landed whole
   * @param problems every departure from the model, lost words included, one line each
   */
  record Check(int acknowledged, int checked, int lost, int landed, List<String> problems) {}

  private final Map<String, String> acked = new HashMap<>();

  /**
   * Checks the reopened store against the writer's lines and takes what it holds as the new
   * truth.
   */
  Check verify(EmbeddedStore store, List<String> lines, String how) {
    Map<Integer, Map<String, String>> pending = new HashMap<>();
    int acknowledged = 0;
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
        acknowledged++;
      }
    }
    List<String> problems = new ArrayList<>();
    int landed = 0;
    for (Map<String, String> intent : pending.values()) {
      int applied = 0;
      int unchanged = 0;
      for (Map.Entry<String, String> e : intent.entrySet()) {
        String before = acked.getOrDefault(e.getKey(), Expect.initial(e.getKey()));
        String seen = Expect.observe(store, e.getKey());
        if (!seen.equals(before) && !seen.equals(e.getValue())) {
          problems.add(e.getKey() + " after a writer " + how + " is \"" + seen + "\": neither"
              + " acknowledged (\"" + before + "\") nor intended (\"" + e.getValue() + "\")");
        }
        applied += seen.equals(e.getValue()) ? 1 : 0;
        unchanged += seen.equals(before) ? 1 : 0;
      }
      if (applied != intent.size() && unchanged != intent.size()) {
        problems.add("intent " + intent + " after a writer " + how + ": half applied");
      } else if (applied == intent.size() && unchanged < intent.size()) {
        acked.putAll(intent);
        landed++;
      }
    }
    Set<String> pendingKeys = new HashSet<>();
    pending.values().forEach(p -> pendingKeys.addAll(p.keySet()));
    int checked = 0;
    int lost = 0;
    for (Map.Entry<String, String> e : acked.entrySet()) {
      if (!pendingKeys.contains(e.getKey())) {
        checked++;
        String seen = Expect.observe(store, e.getKey());
        if (!seen.equals(e.getValue())) {
          lost++;
          problems.add(e.getKey() + ", acknowledged as \"" + e.getValue() + "\", is \"" + seen
              + "\" after a writer " + how);
        }
      }
    }
    for (Task t : store.list(TaskQuery.all(Integer.MAX_VALUE))) {
      if (!acked.containsKey(t.id())) {
        problems.add("task " + t.id() + " was never intended, yet is there after a writer "
            + how);
      }
    }
    return new Check(acknowledged, checked, lost, landed, problems);
  }

  /** Ids of the tasks a new owner must be able to claim at once: all runnable ones. */
  List<String> runnable() {
    return acked.entrySet().stream()
        .filter(e -> e.getValue().split(",").length > 1
            && e.getValue().split(",")[1].equals(TaskStatus.RUNNABLE.word()))
        .map(Map.Entry::getKey).sorted().toList();
  }
}
