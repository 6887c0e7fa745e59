package dev.fsm.engine;

import dev.fsm.FsmException;
import dev.fsm.task.TaskIdRule;
import java.security.SecureRandom;
import java.time.Instant;

/**
 * Generates task ids that sort by creation time: ULIDs (26 characters of Crockford base32, 48 bits
 * of milliseconds then 80 random bits). Within one millisecond the random part counts up, so ids
 * from one process are strictly increasing.
 */
public final class TaskIds {

  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  private static long lastMillis = -1;
  private static long randomHigh; // 16 bits
  private static long randomLow; // 64 bits

  private TaskIds() {}

  /**
   * The id a user gave, checked: 1 to 128 letters, digits and {@code . _ : @ -}, starting with a
   * letter or digit.
   *
   * @throws FsmException naming the id (shortened when long) and the rule
   */
  public static String checked(String id) {
    if (!TaskIdRule.allows(id)) {
      throw new FsmException("task id `" + TaskIdRule.shown(id) + "` is not allowed: "
          + TaskIdRule.WORDS);
    }
    return id;
  }

  /** A new id for a task created at {@code now}. */
  public static synchronized String next(Instant now) {
    long millis = Math.max(now.toEpochMilli(), lastMillis);
    if (millis == lastMillis) {
      randomLow++;
      if (randomLow == 0) {
        randomHigh = (randomHigh + 1) & 0xFFFF;
      }
    } else {
      lastMillis = millis;
      randomHigh = RANDOM.nextInt(1 << 16);
      randomLow = RANDOM.nextLong();
    }
    char[] out = new char[26];
    long time = millis;
    for (int i = 9; i >= 0; i--) {
      out[i] = ALPHABET[(int) (time & 31)];
      time >>>= 5;
    }
    // 80 random bits = 16 chars of 5 bits: the low 64 bits, then the high 16.
    long low = randomLow;
    long high = randomHigh;
    for (int i = 25; i >= 10; i--) {
      out[i] = ALPHABET[(int) (low & 31)];
      low = (low >>> 5) | ((high & 31) << 59);
      high >>>= 5;
    }
    return new String(out);
  }
}
