package dev.fsm.cli.verb;

import dev.fsm.FsmException;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.Json;
import dev.fsm.cli.terminal.Style;
import dev.fsm.diagnostic.Diagnostic;
import dev.fsm.validate.FileReport;
import dev.fsm.validate.ValidationReport;
import dev.fsm.validate.Validator;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm validate}: checks machine files and reports every problem. */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    header = "Check machine files and report every problem.",
    description = {
      "Checks YAML syntax and types, keys, states and edges, reachability, durations, retry"
          + " policies and programs, and prints each problem as"
          + " FILE:LINE:COL: error|warning: message.",
      "Exits 1 when there is any error; warnings alone pass."
    },
    footer = {
      "fsm validate",
      "fsm validate machines/order.yaml --output json"
    })
public final class Validate implements Callable<Integer> {

  @Parameters(paramLabel = "PATH", arity = "0..*",
      description = "Machine files or folders (default: the machines folder).")
  List<Path> paths;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return execute(paths, GlobalOptions.of(spec), spec.commandLine().getOut(),
        spec.commandLine().getErr());
  }

  /**
   * Validates and prints the report; shared by this verb and {@link dev.fsm.cli.FastPath}.
   *
   * @return the exit status
   */
  public static int execute(List<Path> paths, GlobalOptions global, PrintWriter out,
      PrintWriter err) {
    boolean defaultFolder = paths == null || paths.isEmpty();
    List<Path> targets = defaultFolder ? List.of(global.machines()) : paths;
    if (defaultFolder && !Files.isDirectory(global.machines())) {
      throw new FsmException("no machines folder " + global.machines() + " here; name machine"
          + " files or folders (fsm validate order.yaml), or choose the folder with --machines DIR"
          + " or $FSM_MACHINES");
    }
    ValidationReport report = Validator.validate(targets);
    if (global.json()) {
      Json.print(out, toJson(report));
    } else {
      printText(report, out, err, Style.forTerminal(global.colorAllowed()), global.verbose());
    }
    return report.hasErrors() ? ExitCodes.FAILED : ExitCodes.OK;
  }

  private static void printText(ValidationReport report, PrintWriter out, PrintWriter err,
      Style style, boolean verbose) {
    for (Diagnostic d : report.diagnostics()) {
      String where = d.file() + ":" + d.position().line() + ":" + d.position().column() + ":";
      String severity = d.isError() ? style.error("error:") : style.warning("warning:");
      out.println(style.bold(where) + " " + severity + " " + d.text());
    }
    if (verbose) {
      for (FileReport file : report.files()) {
        String verdict = file.hasErrors() ? style.error("invalid") : style.good("ok");
        err.println(file.file() + ": " + verdict
            + file.machine().map(m -> " (machine " + m.name() + ", " + m.states().size()
                + " states)").orElse(""));
      }
    }
    int files = report.files().size();
    err.println((files == 1 ? "1 file" : files + " files") + ": " + count(report.errorCount(),
        "error") + ", " + count(report.warningCount(), "warning"));
  }

  private static String count(long n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  private static Map<String, Object> toJson(ValidationReport report) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("valid", !report.hasErrors());
    doc.put("errors", report.errorCount());
    doc.put("warnings", report.warningCount());
    doc.put("files", report.files().stream().map(f -> {
      Map<String, Object> file = new LinkedHashMap<>();
      file.put("file", f.file().toString());
      file.put("valid", !f.hasErrors());
      file.put("machine", f.machine().map(m -> m.name()).orElse(null));
      return file;
    }).toList());
    doc.put("diagnostics", report.diagnostics().stream().map(d -> {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("file", d.file().toString());
      item.put("line", d.position().line());
      item.put("column", d.position().column());
      item.put("severity", d.severity().word());
      item.put("message", d.message());
      item.put("hint", d.hint());
      return item;
    }).toList());
    return doc;
  }
}
