package dev.fsm.cli.help;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.IHelpFactory;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A verb's usage help with only the verb's own options: the global options and {@code -h}/{@code
 * -V} are the same on every verb, so {@code fsm --help} describes them once and each verb points
 * there in one line.
 */
final class VerbHelp extends Help {

  /** Makes the help of every verb under the command it is set on. */
  static final IHelpFactory FACTORY = VerbHelp::new;

  private VerbHelp(CommandSpec spec, ColorScheme colors) {
    super(spec, colors);
  }

  /** The options a verb's help shows: its own, not inherited, not help or version. */
  static List<OptionSpec> own(CommandSpec spec) {
    return spec.options().stream()
        .filter(o -> !o.inherited() && !o.usageHelp() && !o.versionHelp() && !o.hidden())
        .toList();
  }

  @Override
  protected Text createDetailedSynopsisOptionsText(Collection<ArgSpec> done,
      Comparator<OptionSpec> optionSort, boolean clusterBooleanOptions) {
    return createDetailedSynopsisOptionsText(done, own(commandSpec()), optionSort,
        clusterBooleanOptions);
  }

  @Override
  public String optionListHeading(Object... params) {
    return own(commandSpec()).isEmpty() ? "" : super.optionListHeading(params);
  }

  @Override
  public String optionList() {
    return optionListExcludingGroups(own(commandSpec()));
  }

  @Override
  public String optionList(Layout layout, Comparator<OptionSpec> optionSort,
      IParamLabelRenderer valueLabelRenderer) {
    return optionListExcludingGroups(own(commandSpec()), layout, optionSort, valueLabelRenderer);
  }
}
