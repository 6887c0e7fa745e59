package dev.fsm.store.embedded.index;

import dev.fsm.store.embedded.event.PackedTask;
import dev.fsm.task.Task;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A task as the index stores it under its id's key: packed ({@link PackedTask}), its context
 * deflated. Deflating is most of an index change, so an instance remembers the deflated form of
 * the contexts it saw last: a transition that leaves its task's context as it was deflates
 * nothing.
 */
final class TaskValues {

  /** Contexts shorter than this are kept plain without trying (see {@link PackedTask}). */
  static final int MIN_DEFLATED = PackedTask.MIN_DEFLATED;

  /** Contexts remembered deflated, and the longest one remembered (in chars). */
  static final int REMEMBERED = 4096;
  private static final int REMEMBERED_CHARS = 4096;

  /** Deflated contexts by context, least recently used first. */
  private final Map<String, byte[]> remembered =
      new LinkedHashMap<>(REMEMBERED * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, byte[]> eldest) {
          return size() > REMEMBERED;
        }
      };

  /** The index value of a task, remembering its deflated context. */
  byte[] encodeRemembering(Task t) {
    String context = t.context();
    // Short contexts are kept plain without trying: nothing to remember.
    if (context.length() < MIN_DEFLATED || context.length() > REMEMBERED_CHARS) {
      return encode(t);
    }
    byte[] part = remembered.get(context);
    if (part == null) {
      part = PackedTask.contextPart(context);
      remembered.put(context, part);
    }
    return PackedTask.encode(t, part);
  }

  /** The index value of a task. */
  static byte[] encode(Task t) {
    return PackedTask.encode(t);
  }

  /**
   * The task in an index value kept under the key {@link IndexKeys#id}{@code (id)}.
   *
   * @throws IllegalArgumentException when the bytes are not a whole value
   */
  static Task decode(byte[] key, byte[] value) {
    return PackedTask.decode(IndexKeys.idAt(key, 0), value);
  }
}
