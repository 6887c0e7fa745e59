package dev.fsm.cli.docs;

import dev.fsm.cli.help.Environment;
import dev.fsm.cli.help.HelpLayout;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * A man page in roff, written straight from a command's model. Writing roff ourselves keeps the
 * pages current at no cost, where picocli's AsciiDoc route needs Asciidoctor (about 24 s a build).
 * No date or version in the header, so the pages change only when the commands do.
 */
final class ManPage {

  private ManPage() {}

  /** The page's file name, such as {@code fsm-store-check.1}. */
  static String fileName(CommandSpec spec) {
    return spec.qualifiedName("-") + ".1";
  }

  /** The page of one command; {@code verbs} are the pages to point to under SEE ALSO. */
  static String of(CommandSpec spec, List<String> seeAlso) {
    StringBuilder s = new StringBuilder();
    String name = spec.qualifiedName("-");
    s.append(".TH ").append(name.toUpperCase()).append(" 1 \"\" \"fsm\" \"fsm manual\"\n");
    s.append(".SH NAME\n").append(escape(name)).append(" \\- ")
        .append(escape(String.join(" ", spec.usageMessage().header()))).append('\n');
    s.append(".SH SYNOPSIS\n.nf\n");
    String synopsis = spec.usageMessage().helpFactory().create(spec,
        CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF)).synopsis(0);
    synopsis.lines().forEach(l -> s.append(escape(l.strip())).append('\n'));
    s.append(".fi\n");
    String[] description = spec.usageMessage().description();
    if (description.length > 0) {
      s.append(".SH DESCRIPTION\n");
      for (String paragraph : description) {
        s.append(paragraph.isEmpty() ? ".PP" : escape(paragraph)).append('\n');
      }
    }
    if (!spec.positionalParameters().isEmpty()) {
      s.append(".SH ARGUMENTS\n");
      for (PositionalParamSpec p : spec.positionalParameters()) {
        item(s, "\\fI" + escape(p.paramLabel()) + "\\fR", p);
      }
    }
    List<OptionSpec> options = HelpLayout.shownOptions(spec);
    if (!options.isEmpty() || spec.parent() != null) {
      s.append(".SH OPTIONS\n");
      for (OptionSpec o : options) {
        String names = String.join(", ", List.of(o.names()).stream()
            .map(n -> "\\fB" + escape(n) + "\\fR").toList());
        item(s, names + (o.arity().max() > 0 ? "=\\fI" + escape(o.paramLabel()) + "\\fR" : ""),
            o);
      }
      if (spec.parent() != null) {
        s.append(".PP\n").append(escape(HelpLayout.globalSentence(spec.root())
            .replace("`fsm --help`", "fsm(1)"))).append('\n');
      }
    }
    List<String> examples = HelpLayout.examples(spec);
    if (!examples.isEmpty()) {
      s.append(".SH EXAMPLES\n.nf\n.RS 4\n");
      examples.forEach(l -> s.append(escape(l)).append('\n'));
      s.append(".RE\n.fi\n");
    }
    if (spec.parent() == null) {
      s.append(".SH ENVIRONMENT\n");
      for (Environment.Variable v : Environment.VARIABLES) {
        s.append(".TP\n\\fB").append(escape(v.name())).append("\\fR\n")
            .append(escape(v.meaning())).append('\n');
      }
      s.append(".SH EXIT STATUS\n").append(escape(HelpLayout.EXIT_STATUS)).append('\n');
    }
    if (!seeAlso.isEmpty()) {
      s.append(".SH SEE ALSO\n").append(String.join(",\n", seeAlso.stream()
          .map(p -> "\\fB" + escape(p) + "\\fR(1)").toList())).append('\n');
    }
    return s.toString();
  }

  private static void item(StringBuilder s, String term, ArgSpec arg) {
    s.append(".TP\n").append(term).append('\n');
    for (String line : arg.description()) {
      s.append(escape(interpolate(line, arg))).append('\n');
    }
  }

  private static String interpolate(String text, ArgSpec arg) {
    String defaultValue = arg.defaultValue() == null ? "" : arg.defaultValue();
    return text.replace("${DEFAULT-VALUE}", defaultValue);
  }

  /** Text made safe for roff: backslashes, hyphens, and lines starting with a dot. */
  static String escape(String text) {
    String s = text.replace("\\", "\\e").replace("-", "\\-");
    return s.startsWith(".") || s.startsWith("'") ? "\\&" + s : s;
  }
}
