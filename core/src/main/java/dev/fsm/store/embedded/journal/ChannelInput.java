package dev.fsm.store.embedded.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Buffered, strictly forward reading of a file channel. */
final class ChannelInput {

  private final FileChannel channel;
  private ByteBuffer buffer;
  /** File offset just past the last byte read into the buffer. */
  private long readPosition;

  ChannelInput(FileChannel channel, long start, int capacity) {
    this.channel = channel;
    this.readPosition = start;
    this.buffer = ByteBuffer.allocate(capacity).flip();
  }

  /** The buffer, positioned at the next unread byte. */
  ByteBuffer buffer() {
    return buffer;
  }

  /** The file offset of the next unread byte. */
  long offset() {
    return readPosition - buffer.remaining();
  }

  int available() {
    return buffer.remaining();
  }

  /** Makes at least n unread bytes available; false when the file ends first. */
  boolean fill(int n) throws IOException {
    if (buffer.remaining() >= n) {
      return true;
    }
    if (buffer.capacity() < n) {
      ByteBuffer bigger = ByteBuffer.allocate(Math.max(n, buffer.capacity() * 2));
      bigger.put(buffer);
      buffer = bigger;
    } else {
      buffer.compact();
    }
    while (buffer.position() < n) {
      int read = channel.read(buffer, readPosition);
      if (read < 0) {
        break;
      }
      readPosition += read;
    }
    buffer.flip();
    return buffer.remaining() >= n;
  }

  void skip(int n) {
    buffer.position(buffer.position() + n);
  }
}
