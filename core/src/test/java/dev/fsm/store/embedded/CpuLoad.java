package dev.fsm.store.embedded;

/**
 * Threads that keep processors busy, so the crash suite's writers run as on a loaded machine:
 * their threads descheduled for whole time slices at any point, the journal's writer included.
 */
final class CpuLoad {

  /** Written now and then so that no compiler can prove the loop does nothing. */
  private static volatile long sink;

  private CpuLoad() {}

  /** Starts {@code threads} daemon threads that spin until the process ends. */
  static void burn(int threads) {
    for (int i = 0; i < threads; i++) {
      Thread t = new Thread(CpuLoad::spin, "cpu-load-" + i);
      t.setDaemon(true);
      t.start();
    }
  }

  private static void spin() {
    long x = System.nanoTime();
    while (true) {
      for (int i = 0; i < 1_000_000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
      sink = x;
    }
  }
}
