package dev.fsm.control;

import dev.fsm.FsmException;
import dev.fsm.operations.Operations;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * The control socket of the process that owns a store ({@code fsm run}, {@code fsm shell}):
 * serves every {@link Operations} operation to other {@code fsm} processes, each request answered
 * only after {@code delegate} returned. The caller must hold the store's lock; that is what makes
 * deleting a stale socket file left by a killed owner safe. See {@link SocketLocation} for where
 * the socket lives. Only this user may connect: the socket file is mode 0600, and each peer's
 * credentials are checked as well, since a connection could slip in between bind and chmod.
 * One thread per connection; the delegate must be safe to call from several threads.
 */
public final class ControlServer implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(ControlServer.class.getName());
  private static final long DRAIN_MILLIS = 60_000;

  private final Path storeFolder;
  private final Path socket;
  private final ServerSocketChannel server;
  private final UserPrincipal user;
  private final Operations delegate;
  private final String owner;
  private final List<Connection> connections = new ArrayList<>();
  private final Thread acceptor;
  private final Thread ticker;
  private boolean closed;

  private ControlServer(Path storeFolder, Path socket, ServerSocketChannel server,
      UserPrincipal user, Operations delegate, String owner) {
    this.storeFolder = storeFolder;
    this.socket = socket;
    this.server = server;
    this.user = user;
    this.owner = owner;
    this.delegate = delegate;
    this.acceptor = new Thread(this::accept, "fsm-control-accept");
    this.ticker = new Thread(this::tick, "fsm-control-heartbeat");
    acceptor.setDaemon(true);
    ticker.setDaemon(true);
  }

  /**
   * Binds the store's control socket and starts serving.
   *
   * @param storeFolder the store folder, which the caller has locked
   * @param delegate what requests run against; never closed by the server
   * @param role who serves, as clients name it: {@code runner} gives {@code runner pid 1234}
   * @throws FsmException when the socket cannot be created
   */
  public static ControlServer start(Path storeFolder, Operations delegate, String role) {
    String owner = role + " pid " + ProcessHandle.current().pid();
    Path socket = null;
    ServerSocketChannel server = null;
    try {
      socket = SocketLocation.forOwner(storeFolder);
      // A previous owner's file; the store lock we hold proves nobody listens on it.
      Files.deleteIfExists(socket);
      server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(socket), 128);
      Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
      UserPrincipal user = Files.getOwner(socket);
      ControlServer s = new ControlServer(storeFolder, socket, server, user, delegate, owner);
      s.acceptor.start();
      s.ticker.start();
      return s;
    } catch (IOException e) {
      if (server != null) {
        try {
          server.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw new FsmException("cannot create the control socket "
          + (socket == null ? "for store " + storeFolder : socket.toString()) + ": "
          + e.getMessage(), e);
    }
  }

  /** The socket's path. */
  public Path socket() {
    return socket;
  }

  /** How clients name this server, e.g. {@code runner pid 1234}. */
  public String owner() {
    return owner;
  }

  private void accept() {
    while (true) {
      SocketChannel channel;
      try {
        channel = server.accept();
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException e) {
        LOG.log(Level.WARNING, "control socket " + socket + ": accept failed", e);
        continue;
      }
      try {
        if (!serveable(channel)) {
          continue;
        }
        Connection connection = new Connection(channel, delegate, owner);
        synchronized (this) {
          if (closed) {
            channel.close();
            return;
          }
          connections.removeIf(Connection::finished);
          connections.add(connection);
        }
        connection.start();
      } catch (IOException e) {
        LOG.log(Level.WARNING, "control socket " + socket + ": could not serve a client", e);
        try {
          channel.close();
        } catch (IOException suppressed) {
          // Hung up either way.
        }
      }
    }
  }

  /** True when the peer is this user; anyone else is hung up on. */
  private boolean serveable(SocketChannel channel) {
    try {
      UnixDomainPrincipal peer = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
      if (peer.user().getName().equals(user.getName())) {
        return true;
      }
    } catch (IOException | UnsupportedOperationException e) {
      LOG.log(Level.WARNING, "control socket " + socket + ": cannot tell who connected", e);
    }
    try {
      channel.close();
    } catch (IOException e) {
      // Hung up either way.
    }
    return false;
  }

  private void tick() {
    try {
      while (true) {
        Thread.sleep(Connection.HEARTBEAT_NANOS / 4_000_000);
        List<Connection> now;
        synchronized (this) {
          now = List.copyOf(connections);
        }
        long time = System.nanoTime();
        for (Connection c : now) {
          c.heartbeat(time);
        }
      }
    } catch (InterruptedException e) {
      // Closing.
    }
  }

  /**
   * Stops accepting, lets requests in flight finish and answer (waiting up to a minute), hangs up
   * on idle clients, and deletes the socket file.
   */
  @Override
  public void close() {
    List<Connection> open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = List.copyOf(connections);
    }
    try {
      server.close();
    } catch (IOException e) {
      // Not accepting any more is what matters, and the file is deleted below.
    }
    try {
      acceptor.join();
      for (Connection c : open) {
        c.closeWhenIdle();
      }
      long deadline = System.currentTimeMillis() + DRAIN_MILLIS;
      for (Connection c : open) {
        c.join(Math.max(1, deadline - System.currentTimeMillis()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      ticker.interrupt();
      deleteFiles();
    }
  }

  private void deleteFiles() {
    try {
      Files.deleteIfExists(socket);
      Path pointer = storeFolder.resolve(SocketLocation.POINTER);
      if (Files.exists(pointer) && Files.readString(pointer, StandardCharsets.UTF_8).strip()
          .equals(socket.toString())) {
        Files.delete(pointer);
      }
    } catch (IOException e) {
      // The disk's refusal (a read-only or immutable folder) is the user's to fix: one line.
      LOG.log(Level.WARNING, "could not delete control socket " + socket + " (" + e
          + "); the next owner of the store replaces it");
    }
  }
}
