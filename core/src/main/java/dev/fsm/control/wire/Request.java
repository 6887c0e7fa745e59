package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.Operations;
import java.io.IOException;

/**
 * One control operation as it travels: a record per operation carries its arguments and knows its
 * name on the wire, how it writes them, which codec its result travels with, and which
 * {@link Operations} call it runs on the server. Reading picks the record by name in
 * {@link Envelope#request()}. A new operation is one new record here; the compiler holds the
 * server ({@link #apply}) and the codecs to it, and {@code RequestRoundTripTest} the table.
 *
 * @param <R> what the operation returns
 */
public sealed interface Request<R> permits Hello, Start, Send, SendAll, Signal, Get, History,
    ListTasks, RecentlyChanged, Ids, Counts, Stats, Versions, MachineNames, Breakers, Upgrade, VersionCounts,
    Purge, Runners, Errors, AllVersions, ExportPageRequest, TakenIds, ImportVersion,
    ImportTasks {

  /** The operation's name on the wire, the request's {@code op} field. */
  String op();

  /**
   * Whether the operation may change tasks or machines, so that a client that lost its answer
   * knows whether to check before trying again; a read, or a dry run, does not.
   */
  boolean changes();

  /** Writes the arguments as fields of the request object, after {@code v} and {@code op}. */
  void writeArguments(JsonGenerator g) throws IOException;

  /** How the result travels back. */
  Codec<R> result();

  /**
   * Runs the operation on the server.
   *
   * @param owner how the server names itself to clients, e.g. {@code runner pid 1234}
   */
  R apply(Operations operations, String owner);
}
