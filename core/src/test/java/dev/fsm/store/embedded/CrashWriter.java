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
 * and {@code --checkpoints} to take checkpoints back to back while the threads write, in small
 * journal segments so that each one deletes some (or {@code --no-checkpoints}).
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
      boolean checkpoints) {

    static Args parse(String[] args) {
      return new Args(Path.of(args[0]), Integer.parseInt(args[1]), Long.parseLong(args[2]),
          Integer.parseInt(args[3]), args[4].equals("--rebuild"),
          args[5].equals("--checkpoints"));
    }
  }

  private CrashWriter() {}

  public static void main(String[] argv) throws Exception {
    Args args = Args.parse(argv);
    Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
      e.printStackTrace();
      Runtime.getRuntime().halt(3);
    });
    line("O");
    EmbeddedStoreOptions options = EmbeddedStoreOptions.defaults().forceRebuild(args.rebuild());
    EmbeddedStore store = EmbeddedStore.open(args.folder(), args.checkpoints()
        ? options.journal(JournalOptions.defaults().segmentBytes(16 << 10)) : options);
    // Tasks left runnable by the last run lost their lease at open; leasing them to nobody in
    // particular keeps every claim below to the one task its thread just made due.
    store.claim("sweep", Integer.MAX_VALUE, NOW, LEASE);
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
          store.checkpoint();
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
