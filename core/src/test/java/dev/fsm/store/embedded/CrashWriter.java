package dev.fsm.store.embedded;

import dev.fsm.store.embedded.journal.JournalOptions;
import dev.fsm.task.Task;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * A writer process for the crash suite: opens an embedded store and makes every kind of change
 * from several threads until it is killed. Before each change it prints what the store must hold
 * if the change lands ({@code I}), after the store acknowledges it {@code A}; so the test knows,
 * for any moment of a kill, what may and what must be on disk.
 *
 * <p>Lines, each written with one system call and ended by " .": {@code O} (about to open), {@code
 * R} (open and ready), {@code I THREAD KEY=WORD...} (an intent; see {@link Expect}), {@code A
 * THREAD} (that thread's last intent is acknowledged), {@code C} and {@code c} (a checkpoint
 * began and ended).
 *
 * <p>Arguments: store folder, run number (makes new task ids unique), seed, threads, {@code
 * --rebuild} to rebuild the index at open as {@code fsm store rebuild} does (or {@code --reuse}),
 * {@code --checkpoints} to take checkpoints back to back while the threads write, in small
 * journal segments so that each one deletes some (or {@code --no-checkpoints}), and the number
 * of threads that burn CPU beside the writers; with any, the journal's writer thread also stalls
 * now and then at the start of a pass, as a busy machine deschedules it (issue 15's torn task
 * needed a journal write to lag behind a checkpoint's copy).
 */
public final class CrashWriter {

  /** The only clock: claims, leases and outcomes all use it, so no lease ever runs out. */
  static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
  static final Duration LEASE = Duration.ofHours(1);
  /** Sleeping tasks wake long after {@link #NOW}, so they are never claimable. */
  static final Instant FAR = NOW.plus(Duration.ofDays(3650));

  private static final FileOutputStream OUT = new FileOutputStream(FileDescriptor.out);

  /** The parsed command line. */
  record Args(Path folder, int run, long seed, int threads, boolean rebuild,
      boolean checkpoints, int burners) {

    static Args parse(String[] args) {
      return new Args(Path.of(args[0]), Integer.parseInt(args[1]), Long.parseLong(args[2]),
          Integer.parseInt(args[3]), args[4].equals("--rebuild"),
          args[5].equals("--checkpoints"), Integer.parseInt(args[6]));
    }
  }

  /** One pass in this many stalls for up to {@link #STALL_NANOS}, as a loaded machine would. */
  private static final int STALL_ONE_IN = 12;
  private static final long STALL_NANOS = 2_000_000;
  /**
   * While a checkpoint runs, one pass in this many stalls for up to {@link #LONG_STALL_NANOS}:
   * long enough for the checkpoint to copy a change and finish before the journal writes it,
   * the interleaving behind issue 15's torn task.
   */
  private static final int LONG_STALL_ONE_IN = 3;
  private static final long LONG_STALL_NANOS = 25_000_000;

  private static volatile boolean checkpointing;

  private CrashWriter() {}

  public static void main(String[] argv) throws Exception {
    Args args = Args.parse(argv);
    Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
      e.printStackTrace();
      Runtime.getRuntime().halt(3);
    });
    CpuLoad.burn(args.burners());
    line("O");
    EmbeddedStoreOptions options = EmbeddedStoreOptions.defaults().forceRebuild(args.rebuild());
    EmbeddedStore store = EmbeddedStore.open(args.folder(), args.checkpoints()
        ? options.journal(JournalOptions.defaults().segmentBytes(16 << 10)) : options);
    // Tasks left runnable by the last run lost their lease at open; leasing them to nobody in
    // particular keeps every claim below to the one task its thread just made due.
    store.claim("sweep", Integer.MAX_VALUE, NOW, LEASE);
    if (args.burners() > 0) {
      Random stalls = new Random(args.seed());
      store.journal().onPass(() -> {
        if (checkpointing && stalls.nextInt(LONG_STALL_ONE_IN) == 0) {
          LockSupport.parkNanos(stalls.nextLong(LONG_STALL_NANOS));
        } else if (stalls.nextInt(STALL_ONE_IN) == 0) {
          LockSupport.parkNanos(stalls.nextLong(STALL_NANOS));
        }
      });
    }
    Object claims = new Object();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < args.threads(); t++) {
      CrashWorker worker = new CrashWorker(store, t, args.run(), new Random(args.seed() * 31 + t),
          claims, known(store, CrashWorker.prefix(t)));
      threads.add(new Thread(worker, "writer-" + t));
    }
    if (args.checkpoints()) {
      threads.add(new Thread(() -> {
        while (true) {
          line("C");
          checkpointing = true;
          store.checkpoint();
          checkpointing = false;
          line("c");
        }
      }, "checkpoints"));
    }
    line("R");
    for (Thread t : threads) {
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
  }

  /** One line to stdout in one write, so a kill never leaves half a line before a whole one. */
  static void line(String text) {
    byte[] bytes = (text + " .\n").getBytes(StandardCharsets.UTF_8);
    synchronized (OUT) {
      try {
        OUT.write(bytes);
      } catch (IOException e) {
        // The test stopped reading: nobody is left to tell.
        Runtime.getRuntime().halt(4);
      }
    }
  }

  private static Map<String, CrashWorker.Known> known(EmbeddedStore store, String prefix) {
    Map<String, CrashWorker.Known> known = new java.util.LinkedHashMap<>();
    for (String id : store.idsStartingWith(prefix, Integer.MAX_VALUE)) {
      Task t = store.get(id).orElseThrow();
      var history = store.history(id);
      known.put(id, new CrashWorker.Known(t, history.size(), Expect.hash(history)));
    }
    return known;
  }
}
