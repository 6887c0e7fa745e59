package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.control.wire.Wire.ProtocolException;
import dev.fsm.task.Command;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The codecs of single values. Strings, instants, durations, statuses and commands may be null
 * and travel as JSON null; instants and durations as {@code [seconds, nanos]}, statuses and
 * commands as their words.
 */
public final class Scalars {

  public static final Codec<String> STRING = new StringCodec();
  public static final Codec<List<String>> STRINGS = Codec.list(STRING);
  public static final Codec<Instant> INSTANT = new InstantCodec();
  public static final Codec<Duration> DURATION = new DurationCodec();
  public static final Codec<TaskStatus> STATUS = new StatusCodec();
  public static final Codec<Command> COMMAND = new CommandCodec();
  public static final Codec<Integer> INT = new IntCodec();
  public static final Codec<Boolean> BOOLEAN = new BooleanCodec();

  private Scalars() {}

  /** The status a word names; a word this build does not know is a protocol error. */
  static TaskStatus status(String word) throws ProtocolException {
    Optional<TaskStatus> status = TaskStatus.parse(word);
    if (status.isEmpty()) {
      throw new ProtocolException("unknown status " + word);
    }
    return status.get();
  }

  private static void pair(JsonGenerator g, long seconds, int nanos) throws IOException {
    g.writeStartArray();
    g.writeNumber(seconds);
    g.writeNumber(nanos);
    g.writeEndArray();
  }

  private static long[] pair(JsonParser p) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
    Wire.expect(p, JsonToken.START_ARRAY);
    p.nextToken();
    long seconds = p.getLongValue();
    p.nextToken();
    long nanos = p.getLongValue();
    p.nextToken();
    Wire.expect(p, JsonToken.END_ARRAY);
    return new long[] {seconds, nanos};
  }

  private static final class StringCodec implements Codec<String> {
    @Override
    public void write(JsonGenerator g, String value) throws IOException {
      if (value == null) {
        g.writeNull();
      } else {
        g.writeString(value);
      }
    }

    @Override
    public String read(JsonParser p) throws IOException {
      return Wire.string(p);
    }
  }

  private static final class InstantCodec implements Codec<Instant> {
    @Override
    public void write(JsonGenerator g, Instant value) throws IOException {
      if (value == null) {
        g.writeNull();
      } else {
        pair(g, value.getEpochSecond(), value.getNano());
      }
    }

    @Override
    public Instant read(JsonParser p) throws IOException {
      long[] pair = pair(p);
      return pair == null ? null : Instant.ofEpochSecond(pair[0], pair[1]);
    }
  }

  private static final class DurationCodec implements Codec<Duration> {
    @Override
    public void write(JsonGenerator g, Duration value) throws IOException {
      if (value == null) {
        g.writeNull();
      } else {
        pair(g, value.getSeconds(), value.getNano());
      }
    }

    @Override
    public Duration read(JsonParser p) throws IOException {
      long[] pair = pair(p);
      return pair == null ? null : Duration.ofSeconds(pair[0], pair[1]);
    }
  }

  private static final class StatusCodec implements Codec<TaskStatus> {
    @Override
    public void write(JsonGenerator g, TaskStatus value) throws IOException {
      STRING.write(g, value == null ? null : value.word());
    }

    @Override
    public TaskStatus read(JsonParser p) throws IOException {
      String word = Wire.string(p);
      return word == null ? null : status(word);
    }
  }

  /** A command is never absent from a request that carries one; null is refused on reading. */
  private static final class CommandCodec implements Codec<Command> {
    @Override
    public void write(JsonGenerator g, Command value) throws IOException {
      STRING.write(g, value == null ? null : value.word());
    }

    @Override
    public Command read(JsonParser p) throws IOException {
      String word = Wire.string(p);
      Optional<Command> command = word == null ? Optional.empty() : Command.parse(word);
      if (command.isEmpty()) {
        throw new ProtocolException("unknown command " + word);
      }
      return command.get();
    }
  }

  private static final class IntCodec implements Codec<Integer> {
    @Override
    public void write(JsonGenerator g, Integer value) throws IOException {
      g.writeNumber(value);
    }

    @Override
    public Integer read(JsonParser p) throws IOException {
      return p.getIntValue();
    }
  }

  private static final class BooleanCodec implements Codec<Boolean> {
    @Override
    public void write(JsonGenerator g, Boolean value) throws IOException {
      g.writeBoolean(value);
    }

    @Override
    public Boolean read(JsonParser p) throws IOException {
      return p.getBooleanValue();
    }
  }
}
