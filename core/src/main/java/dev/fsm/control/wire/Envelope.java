package dev.fsm.control.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * A request object as read off the wire: its protocol version, its operation's name and its
 * arguments, before this build has said whether it knows the operation.
 */
public record Envelope(int version, String op, Arguments arguments) {

  /** Writes a whole request object: {@code {"v":1,"op":NAME,...arguments}}. */
  public static void write(JsonGenerator g, Request<?> request) throws IOException {
    g.writeStartObject();
    g.writeNumberField("v", Wire.VERSION);
    g.writeStringField("op", request.op());
    request.writeArguments(g);
    g.writeEndObject();
  }

  /** Reads a request object; the parser stands on its start and is left on its end. */
  public static Envelope read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    int version = 0;
    String op = null;
    Arguments arguments = new Arguments();
    while (Wire.nextField(p)) {
      String name = p.currentName();
      if (name.equals("v")) {
        version = p.getIntValue();
      } else if (name.equals("op")) {
        op = Wire.string(p);
      } else {
        Arg<?> arg = Args.named(name);
        if (arg == null) {
          p.skipChildren();
        } else {
          arguments.put(arg, arg.codec().read(p));
        }
      }
    }
    return new Envelope(version, op, arguments);
  }

  /** The request this envelope carries, or null when this build has no operation of its name. */
  public Request<?> request() {
    if (op == null) {
      return null;
    }
    return switch (op) {
      case Hello.OP -> new Hello();
      case Start.OP -> Start.from(arguments);
      case Send.OP -> Send.from(arguments);
      case SendAll.OP -> SendAll.from(arguments);
      case Signal.OP -> Signal.from(arguments);
      case Get.OP -> Get.from(arguments);
      case History.OP -> History.from(arguments);
      case ListTasks.OP -> ListTasks.from(arguments);
      case RecentlyChanged.OP -> RecentlyChanged.from(arguments);
      case Ids.OP -> Ids.from(arguments);
      case Counts.OP -> new Counts();
      case Stats.OP -> Stats.from(arguments);
      case Versions.OP -> Versions.from(arguments);
      case MachineNames.OP -> new MachineNames();
      case Breakers.OP -> new Breakers();
      case Upgrade.OP -> Upgrade.from(arguments);
      case VersionCounts.OP -> VersionCounts.from(arguments);
      case Purge.OP -> Purge.from(arguments);
      case Runners.OP -> new Runners();
      case Errors.OP -> Errors.from(arguments);
      case AllVersions.OP -> new AllVersions();
      case ExportPageRequest.OP -> ExportPageRequest.from(arguments);
      case TakenIds.OP -> TakenIds.from(arguments);
      case ImportVersion.OP -> ImportVersion.from(arguments);
      case ImportTasks.OP -> ImportTasks.from(arguments);
      default -> null;
    };
  }
}
