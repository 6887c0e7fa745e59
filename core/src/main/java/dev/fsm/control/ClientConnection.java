package dev.fsm.control;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.FsmException;
import dev.fsm.control.wire.Envelope;
import dev.fsm.control.wire.Request;
import dev.fsm.control.wire.Wire;
import dev.fsm.control.wire.Wire.ProtocolException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * The client's end of one connection: frames requests and responses, turns error responses into
 * the exceptions they stand for, and turns silence or a hang-up into an {@link FsmException}
 * rather than a wait. One request at a time; {@link SocketControl} serialises its callers.
 */
final class ClientConnection {

  private static final long CONNECT_NANOS = 1_000_000_000L;

  private final SocketChannel channel;
  private final Watchdog watchdog;
  private final JsonGenerator out;
  private JsonParser in;
  private final long silenceNanos;
  private String owner = "the store's owner";
  private FsmException broken;

  private ClientConnection(SocketChannel channel, Watchdog watchdog, long silenceNanos)
      throws IOException {
    this.channel = channel;
    this.watchdog = watchdog;
    this.silenceNanos = silenceNanos;
    this.out = Wire.JSON.createGenerator(ChannelStreams.output(channel, watchdog));
  }

  /**
   * Connects to the socket, or returns null when nobody listens there: no file, a stale file
   * left by a killed owner, or a listener that does not accept us.
   */
  static ClientConnection open(Path socket, long silenceNanos) {
    SocketChannel channel = null;
    Watchdog watchdog = null;
    try {
      channel = SocketChannel.open(StandardProtocolFamily.UNIX);
      watchdog = new Watchdog(channel, silenceNanos);
      watchdog.start();
      watchdog.arm(CONNECT_NANOS);
      channel.connect(UnixDomainSocketAddress.of(socket));
      watchdog.disarm();
      return new ClientConnection(channel, watchdog, silenceNanos);
    } catch (IOException e) {
      if (watchdog != null) {
        watchdog.shutdown();
      }
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException suppressed) {
          // Nothing was connected.
        }
      }
      return null;
    }
  }

  /** Names the server in messages once its hello told who it is. */
  void owner(String owner) {
    this.owner = owner;
  }

  String owner() {
    return owner;
  }

  /**
   * Sends the request and reads its result, or throws the error the server sent. An
   * {@link IOException} leaves the connection unusable: pass it to {@link #lost}.
   */
  <R> R call(Request<R> request) throws IOException {
    if (broken != null) {
      throw new FsmException(broken.getMessage());
    }
    watchdog.arm(silenceNanos);
    Envelope.write(out, request);
    out.writeRaw('\n');
    out.flush();
    R result = request.result().read(response());
    done();
    return result;
  }

  /** Waits for the response: returns the parser on the result's first token, or throws. */
  private JsonParser response() throws IOException {
    if (in == null) {
      // Created only now because Jackson reads the first bytes at once to detect the encoding.
      in = Wire.JSON.createParser(ChannelStreams.input(channel, watchdog));
    }
    if (in.nextToken() == null) {
      throw new ProtocolException("the connection ended");
    }
    Wire.expect(in, JsonToken.START_OBJECT);
    Wire.field(in, "v");
    if (in.getIntValue() != Wire.VERSION) {
      throw new ProtocolException("protocol v" + in.getIntValue());
    }
    Wire.field(in, "ok");
    if (in.getBooleanValue()) {
      Wire.field(in, "result");
      return in;
    }
    Wire.field(in, "error");
    FsmException error = RemoteErrors.read(in);
    done();
    throw error;
  }

  /** Ends a response whose result has been read. */
  private void done() throws IOException {
    in.nextToken();
    Wire.expect(in, JsonToken.END_OBJECT);
    watchdog.disarm();
  }

  /**
   * What to throw when the connection failed mid-request. The connection is closed: after a
   * half-read response its stream cannot be trusted.
   *
   * @param changes whether the request may have changed tasks, which the user must then check
   */
  FsmException lost(IOException e, boolean changes) {
    String message;
    boolean ownerLost = false;
    String unknown = changes ? "whether the request took effect is unknown: check, then try again"
        : "nothing was changed: try again";
    if (watchdog.fired()) {
      message = owner + " did not answer for " + silenceNanos / 1_000_000_000L
          + " s; it may be stuck; " + unknown + (changes ? ", or stop it" : " or stop it");
      ownerLost = true;
    } else if (e instanceof ClosedByInterruptException) {
      message = "interrupted while waiting for " + owner + "; " + unknown;
    } else if (e instanceof ProtocolException && !e.getMessage().equals("the connection ended")) {
      message = owner + " sent an answer this fsm cannot read (" + e.getMessage()
          + "); use the same fsm version for both";
    } else {
      message = owner + " hung up before answering; it may be stopping; " + unknown;
      ownerLost = true;
    }
    broken = ownerLost ? new OwnerLostException(message, e) : new FsmException(message, e);
    close();
    return broken;
  }

  void close() {
    if (broken == null) {
      broken = new FsmException("the connection to " + owner + " is closed");
    }
    watchdog.shutdown();
    try {
      channel.close();
    } catch (IOException e) {
      // Closed either way.
    }
  }
}
