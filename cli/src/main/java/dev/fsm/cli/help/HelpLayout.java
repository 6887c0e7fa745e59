package dev.fsm.cli.help;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * How every command's {@code --help} is laid out: examples under "Examples:" (each command's
 * {@code footer}, one command line or {@code # comment} a line), the root with the environment
 * and exit status, and each verb with its own options only and one line pointing at {@code fsm
 * --help} for the global ones. Man pages are written from the same model.
 */
public final class HelpLayout {

  /** What the exit statuses mean; the SPEC's table. */
  public static final String EXIT_STATUS = "0 success, 1 refused or failed, 2 usage error.";

  private static final String GLOBAL_LINE = "globalOptions";
  private static final String ENVIRONMENT = "environment";
  private static final String EXIT = "exitStatus";

  private HelpLayout() {}

  /** Lays out the help of {@code root} and every command under it. */
  public static void install(CommandLine root) {
    UsageMessageSpec usage = root.getCommandSpec().usageMessage();
    examples(usage);
    headings(usage);
    usage.sectionMap().put(ENVIRONMENT, help -> environment());
    usage.sectionMap().put(EXIT, help -> String.format("%nExit status: %s%n", EXIT_STATUS));
    List<String> keys = new ArrayList<>(usage.sectionKeys());
    keys.add(ENVIRONMENT);
    keys.add(EXIT);
    usage.sectionKeys(keys);
    String line = globalLine(root.getCommandSpec());
    for (CommandLine verb : root.getSubcommands().values()) {
      verb.setHelpFactory(VerbHelp.FACTORY);
      installVerb(verb, line);
    }
  }

  private static void installVerb(CommandLine cmd, String globalLine) {
    UsageMessageSpec usage = cmd.getCommandSpec().usageMessage();
    if (cmd.getCommand() instanceof CommandLine.HelpCommand) {
      // picocli's own verb; its examples are given here.
      usage.footer("fsm help ls", "fsm help store check");
    }
    examples(usage);
    headings(usage);
    usage.sectionMap().put(GLOBAL_LINE, help -> globalLine);
    List<String> keys = new ArrayList<>(usage.sectionKeys());
    keys.add(keys.indexOf(UsageMessageSpec.SECTION_KEY_OPTION_LIST) + 1, GLOBAL_LINE);
    usage.sectionKeys(keys);
    for (CommandLine sub : cmd.getSubcommands().values()) {
      installVerb(sub, globalLine);
    }
  }

  /**
   * Makes every verb's line about the global options point at {@code where} rather than at
   * {@code fsm --help}: in the shell, its own {@code help}.
   */
  public static void pointGlobalOptionsAt(CommandLine root, String where) {
    String line = String.format("%n%s%n", wrap(globalSentence(root.getCommandSpec())
        .replace("`fsm --help`", where), root.getCommandSpec().usageMessage().width()));
    for (CommandLine verb : root.getSubcommands().values()) {
      pointAt(verb, line);
    }
  }

  private static void pointAt(CommandLine cmd, String line) {
    cmd.getCommandSpec().usageMessage().sectionMap().put(GLOBAL_LINE, help -> line);
    for (CommandLine sub : cmd.getSubcommands().values()) {
      pointAt(sub, line);
    }
  }

  /**
   * The options a command's help and man page describe: all of the root's; a verb's own, since
   * the global ones and {@code -h}/{@code -V} are described once, by the root.
   */
  public static List<OptionSpec> shownOptions(CommandSpec spec) {
    return spec.parent() == null
        ? spec.options().stream().filter(o -> !o.hidden()).toList()
        : VerbHelp.own(spec);
  }

  /** The example lines of a command as written in its {@code footer}, unindented. */
  public static List<String> examples(CommandSpec spec) {
    return Arrays.stream(spec.usageMessage().footer()).map(String::strip)
        .filter(l -> !l.isEmpty()).toList();
  }

  /** The sentence a verb's page and help give in place of the global options. */
  public static String globalSentence(CommandSpec root) {
    return "Global options " + root.options().stream()
        .filter(o -> !o.hidden())
        .map(OptionSpec::shortestName)
        .collect(Collectors.joining(", "))
        + " work with every verb: see `fsm --help`.";
  }

  private static String globalLine(CommandSpec root) {
    return String.format("%n%s%n", wrap(globalSentence(root),
        root.usageMessage().width()));
  }

  /** {@code text} broken into lines of at most {@code width} characters, at spaces. */
  static String wrap(String text, int width) {
    StringBuilder wrapped = new StringBuilder();
    int lineStart = 0;
    for (String word : text.split(" ")) {
      if (wrapped.length() > lineStart && wrapped.length() - lineStart + 1 + word.length()
          > width) {
        wrapped.append(System.lineSeparator());
        lineStart = wrapped.length();
      } else if (wrapped.length() > lineStart) {
        wrapped.append(' ');
      }
      wrapped.append(word);
    }
    return wrapped.toString();
  }

  private static void headings(UsageMessageSpec usage) {
    usage.optionListHeading("%nOptions:%n");
    usage.commandListHeading("%nCommands:%n");
  }

  private static void examples(UsageMessageSpec usage) {
    if (usage.footer().length > 0) {
      usage.footerHeading("%nExamples:%n");
      usage.footer(Arrays.stream(usage.footer()).map(l -> "  " + l.strip())
          .toArray(String[]::new));
    }
  }

  private static String environment() {
    Help.TextTable table = Help.TextTable.forColumnWidths(
        Help.defaultColorScheme(Help.Ansi.OFF), 22, 58);
    for (Environment.Variable v : Environment.VARIABLES) {
      table.addRowValues("  " + v.name(), v.meaning());
    }
    return String.format("%nEnvironment:%n") + table;
  }
}
