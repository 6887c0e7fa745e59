package dev.fsm.control;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;

/**
 * Streams over a socket channel. Unlike {@code Channels.newInputStream}, these take no lock shared
 * between reading and writing, so the server can write a heartbeat while the channel has a reader,
 * and they tell a {@link Watchdog} each time bytes move.
 */
final class ChannelStreams {

  private ChannelStreams() {}

  static InputStream input(ByteChannel channel, Watchdog watchdog) {
    return new InputStream() {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
          return 0;
        }
        int n = channel.read(ByteBuffer.wrap(b, off, len));
        if (n > 0 && watchdog != null) {
          watchdog.progress();
        }
        return n;
      }
    };
  }

  static OutputStream output(ByteChannel channel, Watchdog watchdog) {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
          if (watchdog != null) {
            watchdog.progress();
          }
        }
      }
    };
  }
}
