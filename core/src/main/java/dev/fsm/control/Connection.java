package dev.fsm.control;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.fsm.FsmException;
import dev.fsm.control.wire.Codec;
import dev.fsm.control.wire.Envelope;
import dev.fsm.control.wire.Request;
import dev.fsm.control.wire.Wire;
import dev.fsm.operations.Operations;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.SocketChannel;

/**
 * One client's connection on the server: reads requests one after another, runs each against the
 * delegate, and writes each response once the delegate has returned, so nothing reaches the client
 * before the delegate's change is durable. While a request runs, {@link #heartbeat} writes a
 * newline now and then so the client knows the owner is alive.
 */
final class Connection implements Runnable {

  private static final System.Logger LOG = System.getLogger(Connection.class.getName());
  static final long HEARTBEAT_NANOS = 2_000_000_000L;

  private final SocketChannel channel;
  private final Operations delegate;
  private final String owner;
  private final JsonGenerator out;
  private final Object writeLock = new Object();
  private long lastWrite = System.nanoTime();
  private final Thread thread;
  private boolean busy;
  private boolean closing;

  Connection(SocketChannel channel, Operations delegate, String owner) throws IOException {
    this.channel = channel;
    this.delegate = delegate;
    this.owner = owner;
    this.out = Wire.JSON.createGenerator(ChannelStreams.output(channel, null));
    this.thread = new Thread(this, "fsm-control-connection");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  boolean finished() {
    return thread.getState() == Thread.State.TERMINATED;
  }

  /** Waits for the connection's thread to end; false when it did not within the time. */
  boolean join(long millis) throws InterruptedException {
    thread.join(millis);
    return finished();
  }

  @Override
  public void run() {
    try (JsonParser in = Wire.JSON.createParser(ChannelStreams.input(channel, null))) {
      while (true) {
        Envelope envelope;
        try {
          // Garbage (not JSON at all) fails here, before any request begins.
          if (in.nextToken() == null) {
            break;
          }
          envelope = Envelope.read(in);
        } catch (IOException | RuntimeException e) {
          // The stream's framing is unknown from here on: answer, then hang up.
          String why = e instanceof JsonProcessingException json
              ? json.getOriginalMessage() : e.getMessage();
          fail(new FsmException(owner + " could not read the request (" + why
              + "); use the same fsm version for both"), RemoteErrors.BAD_REQUEST);
          return;
        }
        if (!begin()) {
          return;
        }
        run(envelope);
        if (!end()) {
          return;
        }
      }
    } catch (IOException e) {
      // The client hung up or the server is closing; either way there is nobody to answer.
    } catch (RuntimeException e) {
      // A result that could not be written, half sent: hanging up tells the client at once.
      LOG.log(Level.ERROR, owner + " could not answer a control request", e);
    } finally {
      closeChannel();
    }
  }

  private void run(Envelope envelope) throws IOException {
    if (envelope.version() != Wire.VERSION) {
      fail(new FsmException(owner + " speaks control protocol v" + Wire.VERSION
          + " but was sent v" + envelope.version() + "; use the same fsm version for both"), null);
      return;
    }
    Request<?> request = envelope.request();
    if (request == null) {
      String op = envelope.op() == null ? "" : envelope.op();
      fail(new FsmException(owner + " does not know the control operation `" + op
          + "`; use the same fsm version for both"), null);
      return;
    }
    run(request);
  }

  private <R> void run(Request<R> request) throws IOException {
    R result;
    try {
      result = request.apply(delegate, owner);
    } catch (FsmException e) {
      fail(e, null);
      return;
    } catch (RuntimeException | Error e) {
      LOG.log(Level.ERROR, owner + " failed a control request (" + request.op() + ")", e);
      fail(new FsmException(RemoteErrors.failure(owner, e)), RemoteErrors.FAILED);
      return;
    }
    answer(request.result(), result);
  }

  /** Writes one response line carrying the result. */
  private <R> void answer(Codec<R> codec, R result) throws IOException {
    synchronized (writeLock) {
      startResponse(true);
      out.writeFieldName("result");
      codec.write(out, result);
      endResponse();
    }
  }

  /** Writes one response line carrying the error, as {@code kind} or as its type says. */
  private void fail(FsmException error, String kind) throws IOException {
    synchronized (writeLock) {
      startResponse(false);
      out.writeFieldName("error");
      RemoteErrors.write(out, error, kind);
      endResponse();
    }
  }

  private void startResponse(boolean ok) throws IOException {
    out.writeStartObject();
    out.writeNumberField("v", Wire.VERSION);
    out.writeBooleanField("ok", ok);
  }

  private void endResponse() throws IOException {
    out.writeEndObject();
    out.writeRaw('\n');
    out.flush();
    lastWrite = System.nanoTime();
  }

  /** Writes a newline when a request has been running a while without a word to the client. */
  void heartbeat(long now) {
    synchronized (this) {
      if (!busy) {
        return;
      }
    }
    synchronized (writeLock) {
      if (now - lastWrite < HEARTBEAT_NANOS) {
        return;
      }
      try {
        out.writeRaw('\n');
        out.flush();
        lastWrite = now;
      } catch (IOException e) {
        // The client left; the request still finishes and its answer goes nowhere.
      }
    }
  }

  private synchronized boolean begin() {
    busy = !closing;
    return busy;
  }

  private synchronized boolean end() {
    busy = false;
    return !closing;
  }

  /** Stops the connection: at once when idle, after its response when a request is running. */
  synchronized void closeWhenIdle() {
    closing = true;
    if (!busy) {
      closeChannel();
    }
  }

  private void closeChannel() {
    try {
      channel.close();
    } catch (IOException e) {
      // Closing is all that was wanted.
    }
  }
}
