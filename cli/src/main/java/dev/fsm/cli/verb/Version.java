package dev.fsm.cli.verb;

import dev.fsm.cli.common.BuildVersion;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code fsm version}: fsm's version and build, and the Java it runs on and why that one, since
 * {@code bin/fsm} may pick a newer JDK than {@code java -version} shows.
 */
@Command(
    name = "version",
    mixinStandardHelpOptions = true,
    header = "Show fsm's version and build, and the Java it runs on and why.",
    description = {
      "The Java is the one running this command: its version, vendor and home folder, and why it"
          + " was chosen. bin/fsm runs FSM_JAVA when set, else the newest JDK 25+ in JAVA_HOME"
          + " or /usr/lib/jvm (for its faster start-up), else JAVA_HOME's java, else the one on"
          + " PATH, and tells fsm which rule picked it."
    },
    footer = {"fsm version", "fsm version --output json"})
public final class Version implements Callable<Integer> {

  /** The system property bin/fsm sets to say why it chose the java it runs. */
  public static final String REASON_PROPERTY = "fsm.java.reason";

  /** What is said when no launcher set the reason. */
  static final String DIRECT = "run directly with java, not through bin/fsm";

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    String reason = System.getProperty(REASON_PROPERTY, "");
    String chosen = reason.isBlank() ? DIRECT : "chosen by bin/fsm: " + reason;
    String os = System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
        + System.getProperty("os.arch") + ")";
    if (GlobalOptions.of(spec).json()) {
      Map<String, Object> java = new LinkedHashMap<>();
      java.put("version", System.getProperty("java.version"));
      java.put("vendor", System.getProperty("java.vendor"));
      java.put("home", System.getProperty("java.home"));
      java.put("chosen", reason.isBlank() ? "direct" : reason);
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("version", BuildVersion.get());
      doc.put("built", BuildVersion.built());
      doc.put("java", java);
      doc.put("os", os);
      Json.print(out, doc);
      return ExitCodes.OK;
    }
    out.println("fsm " + BuildVersion.get() + " (built " + BuildVersion.built() + ")");
    out.println("Java " + System.getProperty("java.version") + " ("
        + System.getProperty("java.vendor") + ") in " + System.getProperty("java.home"));
    out.println("  " + chosen);
    out.println("on " + os);
    return ExitCodes.OK;
  }
}
