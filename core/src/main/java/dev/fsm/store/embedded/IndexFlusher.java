package dev.fsm.store.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Writes the memory-mapped index's changed pages to disk five times a second, outside the
 * store's lock. Left to the kernel, pages dirty for 30 s were written back all at once (400 MB
 * after a busy minute, measured), and the journal's forces waited behind that for tens of
 * milliseconds at a time: half-load p99 110-240 ms in the store bench. Flushing every 1 s gave
 * 108-120 ms, every 200 ms 16-21 ms, every 50 ms 10 ms but 15% less throughput. The index needs
 * no durability (it is rebuilt after a crash); this only spreads its writing out.
 */
final class IndexFlusher implements AutoCloseable {

  private final FileChannel channel;
  private final ScheduledExecutorService timer;

  private IndexFlusher(FileChannel channel, Duration every) {
    this.channel = channel;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fsm-index-flush");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleWithFixedDelay(this::flush, every.toMillis(), every.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private static final Duration EVERY = Duration.ofMillis(200);

  /** Starts flushing {@code file}. */
  static IndexFlusher start(Path file) throws IOException {
    return new IndexFlusher(FileChannel.open(file, StandardOpenOption.READ), EVERY);
  }

  private void flush() {
    try {
      channel.force(false);
    } catch (IOException e) {
      // Only a convenience: the kernel writes the pages back later anyway.
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(10, TimeUnit.SECONDS);
      channel.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // Nothing was written through this channel.
    }
  }
}
