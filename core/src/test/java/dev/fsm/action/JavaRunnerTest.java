package dev.fsm.action;

import static dev.fsm.action.Fixtures.awaitFile;
import static dev.fsm.action.Fixtures.machine;
import static dev.fsm.action.Fixtures.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.model.Action;
import dev.fsm.task.Command;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code java:} actions loaded from a plugin jar compiled at test time. */
class JavaRunnerTest {

  /** Where a plugin writes its markers: the task's context is {@code {"dir":"PATH"}}. */
  private static final String DIR = "Path dir = Path.of(ctx.contextJson().split(\"\\\"\")[3]);";

  private static final Map<String, String> SOURCES = Map.of(
      "acme.Greet", plugin("Greet", "return ActionResult.event(\"greeted\", \"{ \\\"who\\\": \\\"\""
          + " + ctx.taskId() + \"/\" + ctx.machine() + \"/\" + ctx.version() + \"/\" + ctx.state()"
          + " + \"/\" + ctx.attempt() + \"\\\" }\");"),
      "acme.Boom", plugin("Boom", "throw new IllegalStateException(\"card declined\");"),
      "acme.Waits", plugin("Waits", DIR + "Files.writeString(dir.resolve(\"started\"), \"yes\");"
          + "try { Thread.sleep(60_000); return ActionResult.event(\"slept\"); }"
          + "catch (InterruptedException e) {"
          + "  Files.writeString(dir.resolve(\"stop\"), \"\" + ctx.stopRequested());"
          + "  return ActionResult.event(\"interrupted\"); }"),
      "acme.Saves", plugin("Saves", DIR + "Files.writeString(dir.resolve(\"started\"), \"yes\");"
          + "while (true) {"
          + "  Optional<String> c = ctx.nextCommand(Duration.ofSeconds(10));"
          + "  if (c.isEmpty()) return ActionResult.error(\"no command came\");"
          + "  if (c.get().equals(\"checkpoint\"))"
          + "    return ActionResult.event(\"saved\", \"{\\\"saved\\\": true}\"); }"),
      "acme.NotAnAction", "package acme; public class NotAnAction { }",
      "acme.Forever", plugin("Forever", "return ActionResult.sleep(Duration.ofDays(365_000));"),
      "acme.Infinite", plugin("Infinite",
          "return ActionResult.event(\"ok\", \"{\\\"n\\\": 1e999}\");"),
      "acme.NeedsArgs", "package acme; import dev.fsm.action.api.*;"
          + "public class NeedsArgs implements FsmAction { public NeedsArgs(String s) {}"
          + "public ActionResult run(ActionContext ctx) { return ActionResult.event(\"ok\"); } }");

  @TempDir static Path work;

  private static Actions actions;

  private static String plugin(String name, String body) {
    return "package acme; import dev.fsm.action.api.*; import java.nio.file.*; import java.time.*;"
        + "import java.util.*; public class " + name + " implements FsmAction {"
        + "public ActionResult run(ActionContext ctx) throws Exception {" + body + "} }";
  }

  @BeforeAll
  static void buildPlugins() throws IOException {
    PluginJar.build(SOURCES, work.resolve("build"), work.resolve("plugins/acme.jar"));
    actions = new Actions(ActionOptions.DEFAULTS.withPlugins(work.resolve("plugins")));
  }

  @AfterAll
  static void close() throws IOException {
    actions.close();
  }

  private static ActionRequest request(String className, Path markers) {
    return new ActionRequest(task("{\"dir\":\"" + markers + "\"}"), machine(work),
        new Action.JavaClass(className, "java:" + className), 1, "runner:1@host/w1");
  }

  @Test
  void anActionSeesItsTaskAndNamesAnEvent() {
    assertThat(actions.run(Fixtures.java(work, "acme.Greet"), new Attempt())).isEqualTo(
        new ActionOutcome.Event("greeted", "{\"who\":\"t-42/order/v7/pay/3\"}"));
  }

  @Test
  void aSleepPastAnyPlanOrAContextThatIsNotStrictJsonIsAnError() {
    assertThat(actions.run(Fixtures.java(work, "acme.Forever"), new Attempt())).isEqualTo(
        new ActionOutcome.Error("java:acme.Forever asked to sleep 365000 days; the longest sleep"
            + " is 100 years"));
    assertThat(actions.run(Fixtures.java(work, "acme.Infinite"), new Attempt())).isEqualTo(
        new ActionOutcome.Error("java:acme.Infinite returned a context that is not valid JSON at"
            + " column 7: the number 1e999 is too large; numbers must fit a double (about"
            + " 1.8e308)"));
  }

  @Test
  void aThrownExceptionIsTheError() {
    assertThat(actions.run(Fixtures.java(work, "acme.Boom"), new Attempt())).isEqualTo(
        new ActionOutcome.Error("java.lang.IllegalStateException: card declined"));
  }

  @Test
  void aStopInterruptsTheActionAndLeavesTheWorkerUninterrupted(@TempDir Path markers)
      throws Exception {
    Attempt attempt = new Attempt();
    CompletableFuture<Object[]> outcome = CompletableFuture.supplyAsync(() -> new Object[] {
        actions.run(request("acme.Waits", markers), attempt),
        Thread.currentThread().isInterrupted()}, task -> new Thread(task).start());
    awaitFile(markers.resolve("started"));
    attempt.stop(Attempt.StopReason.COMMAND);
    assertThat(outcome.get(5, TimeUnit.SECONDS)).containsExactly(
        new ActionOutcome.Stopped(Attempt.StopReason.COMMAND), false);
    assertThat(awaitFile(markers.resolve("stop"))).isEqualTo("true");
  }

  @Test
  void aCheckpointCommandReachesTheRunningAction(@TempDir Path markers) throws Exception {
    Attempt attempt = new Attempt();
    CompletableFuture<ActionOutcome> outcome =
        Fixtures.start(actions, request("acme.Saves", markers), attempt);
    awaitFile(markers.resolve("started"));
    attempt.deliver(Command.CHECKPOINT);
    assertThat(outcome.get(5, TimeUnit.SECONDS))
        .isEqualTo(new ActionOutcome.Event("saved", "{\"saved\":true}"));
  }

  @Test
  void classesThatCannotRunAreClearErrors() {
    assertThat(actions.run(Fixtures.java(work, "acme.Missing"), new Attempt())).isEqualTo(
        new ActionOutcome.Error("java:acme.Missing: class not found in the plugin jars [acme.jar]"
            + " of " + work.resolve("plugins") + "; check the class name or add the jar that"
            + " holds it"));
    assertThat(actions.run(Fixtures.java(work, "acme.NotAnAction"), new Attempt())).isEqualTo(
        new ActionOutcome.Error(
            "java:acme.NotAnAction does not implement dev.fsm.action.api.FsmAction"));
    assertThat(actions.run(Fixtures.java(work, "acme.NeedsArgs"), new Attempt())).isEqualTo(
        new ActionOutcome.Error(
            "java:acme.NeedsArgs needs a public constructor without arguments"));
  }

  @Test
  void withoutAPluginFolderTheErrorSaysToPassOne() throws IOException {
    try (Actions none = new Actions(ActionOptions.DEFAULTS)) {
      assertThat(none.run(Fixtures.java(work, "acme.Greet"), new Attempt())).isEqualTo(
          new ActionOutcome.Error("java:acme.Greet needs a plugin folder; pass --plugins DIR, a"
              + " folder with the jar that holds the class"));
    }
  }
}
