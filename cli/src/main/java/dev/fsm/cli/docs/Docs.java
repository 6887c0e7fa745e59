package dev.fsm.cli.docs;

import dev.fsm.cli.Fsm;
import dev.fsm.cli.complete.CompletionScript;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Writes {@code completions/} and {@code man/} from the command model. Run by {@code mvn -Pdocs
 * package}, or {@code java -cp cli/target/fsm.jar dev.fsm.cli.docs.Docs .} at the repository's
 * root; a test fails when the committed files differ from what this writes.
 */
public final class Docs {

  private Docs() {}

  /** Writes the files under the repository folder {@code args[0]} (default: here). */
  public static void main(String[] args) throws IOException {
    Path repo = Path.of(args.length > 0 ? args[0] : ".");
    for (String folder : List.of("completions", "man")) {
      Path dir = repo.resolve(folder);
      if (Files.isDirectory(dir)) {
        try (Stream<Path> old = Files.list(dir)) {
          for (Path p : old.toList()) {
            Files.delete(p);
          }
        }
      }
    }
    for (Map.Entry<String, String> file : files().entrySet()) {
      Path path = repo.resolve(file.getKey());
      Files.createDirectories(path.getParent());
      Files.writeString(path, file.getValue(), StandardCharsets.UTF_8);
    }
    System.out.println("wrote " + files().size() + " files under " + repo.resolve("completions")
        + " and " + repo.resolve("man"));
  }

  /** Every generated file by its path in the repository. */
  public static Map<String, String> files() {
    PrintWriter none = new PrintWriter(Writer.nullWriter());
    CommandSpec root = Fsm.commandLine(none, none, Map.of()).getCommandSpec();
    Map<String, String> files = new TreeMap<>();
    files.put("completions/fsm.bash", CompletionScript.bash(root));
    files.put("completions/_fsm", CompletionScript.zsh(root));
    List<CommandSpec> pages = new ArrayList<>();
    collect(root, pages);
    List<String> verbs = pages.stream().skip(1).map(p -> p.qualifiedName("-")).toList();
    for (CommandSpec spec : pages) {
      List<String> seeAlso = spec == root ? verbs : List.of(spec.parent().qualifiedName("-"));
      files.put("man/" + ManPage.fileName(spec), ManPage.of(spec, seeAlso));
    }
    return files;
  }

  private static void collect(CommandSpec spec, List<CommandSpec> pages) {
    pages.add(spec);
    for (CommandLine sub : spec.subcommands().values()) {
      CommandSpec s = sub.getCommandSpec();
      if (!s.usageMessage().hidden() && !(s.userObject() instanceof CommandLine.HelpCommand)
          && !pages.contains(s)) {
        collect(s, pages);
      }
    }
  }
}
