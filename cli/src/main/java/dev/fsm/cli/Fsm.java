package dev.fsm.cli;

import dev.fsm.cli.common.BuildVersion;
import dev.fsm.cli.common.CommandTree;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.complete.Complete;
import dev.fsm.cli.complete.Completion;
import dev.fsm.cli.help.HelpLayout;
import dev.fsm.cli.shell.Shell;
import dev.fsm.cli.verb.Bench;
import dev.fsm.cli.verb.Validate;
import dev.fsm.cli.verb.init.Init;
import dev.fsm.cli.verb.render.Render;
import dev.fsm.cli.verb.run.Run;
import dev.fsm.cli.verb.store.Store;
import dev.fsm.cli.verb.task.Errors;
import dev.fsm.cli.verb.task.History;
import dev.fsm.cli.verb.task.Ls;
import dev.fsm.cli.verb.task.Machines;
import dev.fsm.cli.verb.task.Purge;
import dev.fsm.cli.verb.task.Runners;
import dev.fsm.cli.verb.task.Send;
import dev.fsm.cli.verb.task.Show;
import dev.fsm.cli.verb.task.Signal;
import dev.fsm.cli.verb.task.Start;
import dev.fsm.cli.verb.task.Stats;
import dev.fsm.cli.verb.task.Tail;
import dev.fsm.cli.verb.task.Upgrade;
import dev.fsm.cli.verb.task.Watch;
import dev.fsm.files.DiskFailure;
import dev.fsm.store.StoreLocation;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** The root {@code fsm} command: global options and the verbs. */
@Command(
    name = "fsm",
    mixinStandardHelpOptions = true,
    versionProvider = Fsm.Version.class,
    header = "Durable finite-state machines from the command line.",
    description = "Describe a process as a YAML machine of states and events; fsm validates it"
        + " and runs task instances through it, durably.",
    footer = {
      "fsm init && fsm validate",
      "fsm start hello --context '{\"name\": \"Ada\"}'",
      "fsm run --until-idle",
      "fsm ls --status fault",
      "fsm help ls"
    })
public final class Fsm implements Runnable, CommandTree {

  /**
   * The verbs, in the order help lists them; {@link #commandLine} adds them, not the annotation,
   * so that a command line naming one builds only that verb (see {@link OneVerb}).
   */
  static final List<Class<?>> VERBS = List.of(Init.class, Validate.class, Render.class,
      Machines.class, Upgrade.class, Start.class, Run.class, Send.class, Signal.class, Ls.class,
      Show.class, History.class, Stats.class, Errors.class, Runners.class, Purge.class,
      Watch.class, Tail.class, Shell.class, Bench.class, Store.class, Completion.class,
      Complete.class, dev.fsm.cli.verb.Version.class, CommandLine.HelpCommand.class);

  @Mixin GlobalOptions global;

  @Spec CommandSpec spec;

  Fsm(GlobalOptions global) {
    this.global = global;
  }

  @Override
  public CommandLine build(PrintWriter out, PrintWriter err, Map<String, String> env) {
    return commandLine(out, err, env);
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "a verb is required, such as `fsm validate`");
  }

  /** Runs one command line with the process environment; returns the exit status. */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    return run(out, err, System.getenv(), args);
  }

  /** Runs one command line; returns the exit status. */
  public static int run(PrintWriter out, PrintWriter err, Map<String, String> env,
      String... args) {
    CommandLine cmd = commandLine(out, err, env, OneVerb.of(args));
    try {
      return cmd.execute(args);
    } catch (InternalError e) {
      // Picocli hands on errors; this one is a memory-mapped store file the disk could not back.
      if (!DiskFailure.isMappedFault(e)) {
        throw e;
      }
      GlobalOptions global = GlobalOptions.of(cmd.getCommandSpec());
      String store = global.store();
      if (store != null && StoreLocation.parse(store) instanceof StoreLocation.Folder folder) {
        // Whichever thread met it, the page was the index's: name the file, not the folder.
        store = folder.mappedFile().toString();
      }
      return ExitCodes.report(e, err, global.verbose(), store);
    }
  }

  /** A fresh command tree of every verb, writing to the given streams. */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err, Map<String, String> env) {
    return commandLine(out, err, env, OneVerb.ALL);
  }

  /**
   * A fresh command tree writing to the given streams, with the verb {@code verbs} picks from
   * the root's options, or every verb. Picocli reads every verb's annotations as it builds a
   * tree: for the whole tree that was about 0.3 s of CPU, most of a one-shot verb's own cost.
   */
  static CommandLine commandLine(PrintWriter out, PrintWriter err, Map<String, String> env,
      OneVerb verbs) {
    GlobalOptions global = new GlobalOptions(env, err);
    CommandLine cmd = new CommandLine(new Fsm(global));
    // Before the settings below: picocli applies them only to the verbs it holds by then.
    verbs.pick(cmd.getCommandSpec()).forEach(cmd::addSubcommand);
    // `--context @FILE` names a file of JSON; picocli would otherwise read it as arguments.
    cmd.setExpandAtFiles(false);
    // `--store store` names a folder that happens to share a verb's name; it is not the verb.
    cmd.setAllowSubcommandsAsOptionParameters(true);
    cmd.setOut(out);
    cmd.setErr(err);
    cmd.setExecutionExceptionHandler(new ExitCodes.OnExecution());
    cmd.setParameterExceptionHandler(new ExitCodes.OnBadArguments());
    cmd.setColorScheme(CommandLine.Help.defaultColorScheme(
        global.colorAllowed() ? CommandLine.Help.Ansi.AUTO : CommandLine.Help.Ansi.OFF));
    HelpLayout.install(cmd);
    return cmd;
  }

  /** The version from the build. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      return new String[] {
        "fsm " + BuildVersion.get(),
        "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor")
            + ")",
      };
    }
  }
}
