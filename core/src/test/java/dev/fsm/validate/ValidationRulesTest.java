package dev.fsm.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.diagnostic.Diagnostic;
import dev.fsm.model.Action;
import dev.fsm.model.Behavior;
import dev.fsm.model.Machine;
import dev.fsm.model.Outcome;
import dev.fsm.model.State;
import dev.fsm.model.Timeout;
import dev.fsm.yaml.MachineDraft;
import dev.fsm.yaml.MachineReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One test per validation rule, each pinning the exact line, column and wording. */
class ValidationRulesTest {

  private static final Path FILE = Path.of("m.yaml");

  /** Every diagnostic as the CLI prints it. */
  static List<String> lines(String yaml) {
    return Validator.check(FILE, yaml).diagnostics().stream().map(Diagnostic::format).toList();
  }

  static Machine machine(String yaml) {
    MachineDraft draft = MachineReader.read(FILE, yaml);
    assertThat(draft.diagnostics()).isEmpty();
    return draft.machine().orElseThrow();
  }

  @Nested
  class Valid {

    @Test
    void theSpecExampleIsValid() {
      String yaml = """
          machine: order
          description: From payment to delivery
          initial: pay
          upgrade: continue
          defaults:
            timeout: p95
            retry: {max_errors: 8, window: 4h, backoff: 10m}
          states:
            pay:
              run: builtin:emit ok
              retry: {max_errors: 3, window: 1h, backoff: {initial: 1s, max: 5m, multiplier: 2, jitter: 0.2}}
              on:
                ok: ship
                declined: refund
            ship:
              run: [builtin:noop]
              timeout: 30s
              on: {ok: await_signature, error: ship_later}
            refund:
              run: builtin:noop
              retry: {max_errors: 3, window: 1h, backoff: 30s}
              on: {ok: cancelled, exhausted: manual_review}
            manual_review:
              on: {done: cancelled}
            ship_later:
              wait: 5m
              on: {ok: ship}
            await_signature:
              on: {signed: delivered}
            delivered: {final: completed}
            cancelled: {final: failed}
          """;
      FileReport report = Validator.check(FILE, yaml);
      assertThat(report.diagnostics()).isEmpty();
      Machine m = report.machine().orElseThrow();
      assertThat(m.name()).isEqualTo("order");
      assertThat(m.initial()).isEqualTo("pay");
      assertThat(m.stateNames()).containsExactly("pay", "ship", "refund", "manual_review",
          "ship_later", "await_signature", "delivered", "cancelled");
      State pay = m.state("pay").orElseThrow();
      assertThat(pay.timeout()).isEqualTo(new Timeout.Percentile(95));
      assertThat(pay.retry().maxErrors()).isEqualTo(3);
      assertThat(pay.retry().backoff().multiplier()).isEqualTo(2.0);
      assertThat(pay.retry().backoff().jitter()).isEqualTo(0.2);
      State ship = m.state("ship").orElseThrow();
      assertThat(ship.timeout()).isEqualTo(new Timeout.Fixed(Duration.ofSeconds(30)));
      assertThat(ship.retry().backoff().initial()).isEqualTo(Duration.ofMinutes(10));
      assertThat(m.state("refund").orElseThrow().next("exhausted")).contains("manual_review");
      assertThat(m.state("ship_later").orElseThrow().behavior())
          .isEqualTo(new Behavior.Wait(Duration.ofMinutes(5)));
      assertThat(m.state("await_signature").orElseThrow().behavior())
          .isInstanceOf(Behavior.External.class);
      assertThat(m.state("cancelled").orElseThrow().behavior())
          .isEqualTo(new Behavior.Final(Outcome.FAILED));
    }

    @Test
    void initialDefaultsToTheFirstStateListed() {
      Machine m = machine("""
          machine: a
          states:
            second: {run: builtin:noop, on: {ok: first}}
            first: {final: completed}
          """);
      assertThat(m.initial()).isEqualTo("second");
    }

    @Test
    void onYesNoAndOffAreNamesNotBooleans() {
      Machine m = machine("""
          machine: a
          states:
            yes:
              run: builtin:emit no
              on:
                no: on
            on:
              run: builtin:emit off
              on: {off: y}
            y: {run: builtin:emit true, on: {true: n}}
            n: {final: completed}
          """);
      assertThat(m.stateNames()).containsExactly("yes", "on", "y", "n");
      assertThat(m.state("yes").orElseThrow().on()).containsEntry("no", "on");
      assertThat(m.state("on").orElseThrow().on()).containsEntry("off", "y");
      assertThat(m.state("y").orElseThrow().on()).containsEntry("true", "n");
    }

    @Test
    void numbersAreKeptAsWritten() {
      Machine m = machine("""
          machine: a
          description: 1.10
          states:
            s:
              run: [builtin:fail, 1.10, 0x1F, 010, 1e3, .inf, ~x]
              on: {error: e}
            e: {final: completed}
          """);
      assertThat(m.description()).isEqualTo("1.10");
      Action.Builtin fail = (Action.Builtin) ((Behavior.Run) m.state("s").orElseThrow()
          .behavior()).action();
      assertThat(fail.args()).containsExactly("1.10", "0x1F", "010", "1e3", ".inf", "~x");
    }

    @Test
    void mergeKeysShareSettings() {
      Machine m = machine("""
          machine: a
          defaults: &fast
            timeout: 5s
          states:
            s: &base
              run: builtin:noop
              timeout: 7s
              on: {ok: t}
            t:
              <<: *base
              on: {ok: u}
            u:
              <<: [*base]
              timeout: 9s
              on: {ok: e}
            e: {final: completed}
          """);
      State t = m.state("t").orElseThrow();
      assertThat(t.behavior()).isInstanceOf(Behavior.Run.class);
      assertThat(t.timeout()).isEqualTo(new Timeout.Fixed(Duration.ofSeconds(7)));
      assertThat(t.on()).containsExactly(java.util.Map.entry("ok", "u"));
      assertThat(m.state("u").orElseThrow().timeout())
          .isEqualTo(new Timeout.Fixed(Duration.ofSeconds(9)));
    }

    @Test
    void argvListAndCommandLineAreTheSameProgram() {
      Machine m = machine("""
          machine: a
          states:
            s: {run: "sh -c 'exit 0' --x=\\"a b\\"", on: {ok: t}}
            t: {run: [sh, -c, exit 0], on: {ok: e}}
            e: {final: completed}
          """);
      assertThat(((Action.Program) ((Behavior.Run) m.state("s").orElseThrow().behavior())
          .action()).argv()).containsExactly("sh", "-c", "exit 0", "--x=a b");
      assertThat(((Action.Program) ((Behavior.Run) m.state("t").orElseThrow().behavior())
          .action()).argv()).containsExactly("sh", "-c", "exit 0");
    }

    @Test
    void javaClassActionsAreAccepted() {
      Machine m = machine("""
          machine: a
          states:
            s: {run: java:com.example.ChargeCard, on: {ok: e}}
            e: {final: completed}
          """);
      assertThat(((Behavior.Run) m.state("s").orElseThrow().behavior()).action())
          .isEqualTo(new Action.JavaClass("com.example.ChargeCard", "java:com.example.ChargeCard"));
    }
  }

  @Nested
  class Shape {

    @Test
    void yamlSyntaxError() {
      assertThat(lines("""
          machine: a
          states:
            s: {final: completed
            t: x
          """)).containsExactly(
          "m.yaml:3:6: error: the `{` opened here is never closed (close it with `}` on the"
              + " same line, or write its items as indented lines)");
    }

    @Test
    void badIndentation() {
      assertThat(lines("machine: a\nstates:\n  s: {final: completed}\n t: {final: failed}\n"))
          .singleElement().asString().isEqualTo("m.yaml:4:2: error: `t:` is indented to column"
              + " 2, which lines up with no key above it (indent it exactly as far as the other"
              + " keys of its mapping)");
    }

    @Test
    void aListWhereAMappingBelongs() {
      assertThat(lines("""
          machine: a
          states:
            - s
            - t
          """)).containsExactly(
          "m.yaml:3:3: error: `states` must be a mapping, found a list");
    }

    @Test
    void aListForTheWholeFile() {
      assertThat(lines("- machine: a\n- states: {}\n")).containsExactly(
          "m.yaml:1:1: error: a machine file must be a mapping with `machine:` and `states:`,"
              + " found a list");
    }

    @Test
    void aScalarForAState() {
      assertThat(lines("""
          machine: a
          states:
            s: run builtin:noop
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:6: error: state `s` must be a mapping of settings (run, wait, on, final...),"
              + " found `run builtin:noop` (for example `s: {run: scripts/step.sh, on: {ok:"
              + " next}}`)");
    }

    @Test
    void aBrokenStateIsNotAlsoBlamedForTheMissingFinalState() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:noop, on: {ok: e}}
            e: completed
          """)).containsExactly(
          "m.yaml:4:6: error: state `e` must be a mapping of settings (run, wait, on, final...),"
              + " found `completed` (for example `e: {run: scripts/step.sh, on: {ok: next}}`)");
    }

    @Test
    void aMappingWhereAValueBelongs() {
      assertThat(lines("""
          machine: {name: a}
          states:
            s:
              run: builtin:noop
              on:
                ok: {state: e}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:1:10: error: `machine` must be a value, found a mapping",
          "m.yaml:6:11: error: the target of event `ok` in `on` of state `s` must be a value,"
              + " found a mapping");
    }

    @Test
    void aListWhereAValueBelongs() {
      assertThat(lines("""
          machine: a
          description: [x]
          initial: [s]
          states:
            s: {final: [completed]}
          """)).containsExactly(
          "m.yaml:2:14: error: `description` must be a value, found a list",
          "m.yaml:3:10: error: `initial` must be a value, found a list",
          "m.yaml:5:14: error: `final` in state `s` must be a value, found a list");
    }

    @Test
    void aValueWhereAMappingBelongs() {
      assertThat(lines("""
          machine: a
          defaults: 5s
          states:
            s: {run: builtin:noop, on: ok, retry: 3}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:2:11: error: `defaults` must be a mapping, found `5s`",
          "m.yaml:4:30: error: `on` of state `s` must be a mapping, found `ok`",
          "m.yaml:4:41: error: `retry` in state `s` must be a mapping, found `3`");
    }

    @Test
    void unknownTopLevelKey() {
      assertThat(lines("""
          machine: a
          stats: {}
          version: 2
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:2:1: error: unknown key `stats` at the top level (did you mean `states`?)",
          "m.yaml:3:1: error: unknown key `version` at the top level (allowed keys: machine,"
              + " description, initial, upgrade, retention, defaults, states, concurrency, breaker)");
    }

    @Test
    void unknownStateKey() {
      assertThat(lines("""
          machine: a
          states:
            s:
              run: builtin:noop
              timeot: 5s
              on: {ok: e}
            e: {final: completed, outcome: x}
          """)).containsExactly(
          "m.yaml:5:5: error: unknown key `timeot` in state `s` (did you mean `timeout`?)",
          "m.yaml:7:25: error: unknown key `outcome` in state `e` (allowed keys: description,"
              + " run, wait, on, timeout, retry, final, concurrency)");
    }

    @Test
    void unknownDefaultsRetryAndBackoffKeys() {
      assertThat(lines("""
          machine: a
          defaults:
            timout: 5s
            retry:
              max_erors: 3
              backoff: {initial: 1s, multiplyer: 2}
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:3:3: error: unknown key `timout` in `defaults` (did you mean `timeout`?)",
          "m.yaml:5:5: error: unknown key `max_erors` in `retry` in `defaults` (did you mean"
              + " `max_errors`?)",
          "m.yaml:6:28: error: unknown key `multiplyer` in `backoff` in `defaults` (did you mean"
              + " `multiplier`?)");
    }

    @Test
    void duplicateKeys() {
      assertThat(lines("""
          machine: a
          machine: b
          states:
            s:
              run: builtin:noop
              on: {ok: e, ok: s}
              run: builtin:fail
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:2:1: error: duplicate key `machine` at the top level (first defined at line 1)",
          "m.yaml:6:17: error: duplicate key `ok` in `on` of state `s` (first defined at line 6)",
          "m.yaml:7:5: error: duplicate key `run` in state `s` (first defined at line 5)");
    }

    @Test
    void duplicateStates() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:noop, on: {ok: e}}
            e: {final: completed}
            s: {final: failed}
          """)).containsExactly(
          "m.yaml:5:3: error: duplicate state `s` (first defined at line 3)");
    }

    @Test
    void missingMachine() {
      assertThat(lines("""
          description: nameless
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:1:1: error: missing `machine:` (name the machine, e.g. `machine: order`)");
    }

    @Test
    void badMachineName() {
      assertThat(lines("""
          machine: Order Flow
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:1:10: error: machine name `Order Flow` is not allowed (use 1 to 63"
              + " characters: a lowercase letter, then lowercase letters, digits, `_` or `-`)");
      assertThat(lines("machine: 1a\nstates: {s: {final: completed}}\n")).singleElement()
          .asString().contains("machine name `1a` is not allowed");
      assertThat(lines("machine: a" + "b".repeat(63) + "\nstates: {s: {final: completed}}\n"))
          .singleElement().asString().contains("is not allowed");
      assertThat(lines("machine: a" + "b".repeat(62) + "\nstates: {s: {final: completed}}\n"))
          .isEmpty();
    }

    @Test
    void badStateName() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:noop, on: {ok: e}}
            e: {final: completed}
            2nd step: {final: failed}
          """)).containsExactly(
          "m.yaml:5:3: error: state name `2nd step` is not a plain name (start with a letter;"
              + " use letters, digits, `_` and `-`, at most 63 characters)");
    }

    @Test
    void badEventName() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:noop, on: {ok: e, "not ok": e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:38: error: event name `not ok` in `on` of state `s` is not a plain name"
              + " (start with a letter; use letters, digits, `_` and `-`)");
    }

    @Test
    void badRetention() {
      assertThat(lines("""
          machine: a
          retention: 0s
          states:
            s: {final: completed}
          """)).containsExactly("m.yaml:2:12: error: `retention` must be longer than 0");
      assertThat(lines("""
          machine: a
          retention: a month
          states:
            s: {final: completed}
          """)).containsExactly("m.yaml:2:12: error: `retention`: bad duration `a month`; use a"
              + " number and a unit (ms, s, m, h, d), like `30s` or `1h30m`");
      assertThat(lines("""
          machine: a
          retention: 30d
          states:
            s: {final: completed}
          """)).isEmpty();
    }

    @Test
    void badUpgrade() {
      assertThat(lines("""
          machine: a
          upgrade: upgrad
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:2:10: error: `upgrade` must be one of continue, upgrade, abort, found `upgrad`"
              + " (did you mean `upgrade`?)");
    }

    @Test
    void missingStates() {
      assertThat(lines("machine: a\n")).containsExactly(
          "m.yaml:1:1: error: missing `states:` (list the machine's states under `states:`)");
    }

    @Test
    void emptyStates() {
      assertThat(lines("machine: a\nstates: {}\n")).containsExactly(
          "m.yaml:2:1: error: `states` is empty (a machine needs at least one state)");
      assertThat(lines("machine: a\nstates:\n")).containsExactly(
          "m.yaml:2:8: error: `states` must be a mapping, found nothing");
    }

    @Test
    void statesWithOnlyBadNamesAreNotCalledEmpty() {
      assertThat(lines("""
          machine: a
          states:
            ? [a, b]
            : {final: completed}
          """)).containsExactly(
          "m.yaml:3:5: error: keys in `states` must be plain names, found a list");
    }
  }

  @Nested
  class Graph {

    @Test
    void unknownInitialWithSuggestion() {
      assertThat(lines("""
          machine: a
          initial: shp
          states:
            ship: {run: builtin:noop, on: {ok: done}}
            done: {final: completed}
          """)).containsExactly(
          "m.yaml:2:10: error: initial state `shp` is not a state of this machine (did you mean"
              + " `ship`?)");
    }

    @Test
    void unknownInitialWithoutSuggestion() {
      assertThat(lines("""
          machine: a
          initial: zzzzzz
          states:
            ship: {run: builtin:noop, on: {ok: done}}
            done: {final: completed}
          """)).containsExactly(
          "m.yaml:2:10: error: initial state `zzzzzz` is not a state of this machine (states:"
              + " ship, done)");
    }

    @Test
    void missingInitialValue() {
      assertThat(lines("""
          machine: a
          initial:
          states:
            ship: {run: builtin:noop, on: {ok: done}}
            done: {final: completed}
          """)).containsExactly("m.yaml:2:9: error: `initial` must be a value, found nothing");
    }

    @Test
    void edgeToUnknownStateWithSuggestion() {
      assertThat(lines("""
          machine: a
          states:
            pay:
              run: builtin:noop
              on:
                ok: shipp
            ship: {run: builtin:noop, on: {ok: done}}
            done: {final: completed}
          """)).containsExactly(
          "m.yaml:6:11: error: event `ok` of state `pay` leads to unknown state `shipp` (did you"
              + " mean `ship`?)");
    }

    @Test
    void edgeToUnknownStateWithoutSuggestion() {
      assertThat(lines("""
          machine: a
          states:
            pay: {run: builtin:noop, on: {ok: done, declined: zzzzzz}}
            done: {final: completed}
          """)).containsExactly(
          "m.yaml:3:53: error: event `declined` of state `pay` leads to unknown state `zzzzzz`"
              + " (states: pay, done)");
    }

    @Test
    void finalStateWithActionsOrEdges() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:noop, on: {ok: e}}
            e:
              final: completed
              run: builtin:noop
              wait: 1s
              on: {ok: s}
              timeout: 1s
              retry: {max_errors: 1}
          """)).containsExactly(
          "m.yaml:6:5: error: final state `e` cannot have `run`: a task that reaches it has"
              + " ended (remove `run`, or remove `final` to keep the task going)",
          "m.yaml:7:5: error: final state `e` cannot have `wait`: a task that reaches it has"
              + " ended (remove `wait`, or remove `final` to keep the task going)",
          "m.yaml:8:5: error: final state `e` cannot have `on`: a task that reaches it has ended"
              + " (remove `on`, or remove `final` to keep the task going)",
          "m.yaml:9:5: error: final state `e` cannot have `timeout`: a task that reaches it has"
              + " ended (remove `timeout`, or remove `final` to keep the task going)",
          "m.yaml:10:5: error: final state `e` cannot have `retry`: a task that reaches it has"
              + " ended (remove `retry`, or remove `final` to keep the task going)");
    }

    @Test
    void badFinalOutcome() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:noop, on: {ok: e}}
            e: {final: complete}
          """)).containsExactly(
          "m.yaml:4:14: error: `final` in state `e` must be `completed` or `failed`, found"
              + " `complete` (did you mean `completed`?)");
      assertThat(lines("machine: a\nstates:\n  e: {final: true}\n")).containsExactly(
          "m.yaml:3:14: error: `final` in state `e` must be `completed` or `failed`, found"
              + " `true`");
    }

    @Test
    void bothRunAndWait() {
      assertThat(lines("""
          machine: a
          states:
            s:
              run: builtin:noop
              wait: 5m
              on: {ok: e}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:5:5: error: state `s` has both `run` and `wait` (a state either runs an action"
              + " or waits; split it into two states)");
    }

    @Test
    void waitStateWithoutOkEdge() {
      assertThat(lines("""
          machine: a
          states:
            s:
              wait: 5m
              on: {done: e}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:4:5: error: wait state `s` has no `ok` edge (a wait state fires `ok` when the"
              + " wait is over: add `on: {ok: NEXT_STATE}`)");
    }

    @Test
    void nonFinalStateWithNoWayOut() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:noop, on: {ok: stuck, e: e}}
            stuck:
              run: builtin:fail
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:4:3: error: state `stuck` has no way out: it is not final and has no `on:`"
              + " edges (add `on: {EVENT: NEXT_STATE}`, or end the task here with `final:"
              + " completed`)");
    }

    @Test
    void aStateWithNothingIsAlsoStuck() {
      assertThat(lines("machine: a\nstates:\n  s: {run: builtin:noop, on: {ok: t, e: e}}\n"
          + "  t:\n  e: {final: completed}\n")).containsExactly(
          "m.yaml:4:3: error: state `t` has no way out: it is not final and has no `on:` edges"
              + " (add `on: {EVENT: NEXT_STATE}`, or end the task here with `final: completed`)");
    }

    @Test
    void unreachableState() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:noop, on: {ok: e}}
            lost: {run: builtin:noop, on: {ok: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:4:3: error: state `lost` cannot be reached from the initial state `s` (add an"
              + " edge to it, or remove it)");
    }

    @Test
    void aMisspeltEdgeIsReportedOnceNotAsUnreachableStates() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:noop, on: {ok: nxet}}
            next: {run: builtin:noop, on: {ok: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:35: error: event `ok` of state `s` leads to unknown state `nxet` (did you"
              + " mean `next`?)");
    }

    @Test
    void stateThatCannotReachAFinalStateIsAWarning() {
      FileReport report = Validator.check(FILE, """
          machine: a
          states:
            s: {run: builtin:noop, on: {ok: loop, done: e}}
            loop:
              run: builtin:noop
              on: {ok: loop}
            e: {final: completed}
          """);
      assertThat(report.diagnostics()).map(Diagnostic::format).containsExactly(
          "m.yaml:4:3: warning: no final state can be reached from state `loop`; tasks that get"
              + " here never finish (add an edge towards a final state)");
      assertThat(report.hasErrors()).isFalse();
      assertThat(report.machine()).isPresent();
    }

    @Test
    void machineWithoutFinalStateIsAWarning() {
      FileReport report = Validator.check(FILE, """
          machine: pingpong
          states:
            ping: {run: builtin:noop, on: {ok: pong}}
            pong: {run: builtin:noop, on: {ok: ping}}
          """);
      assertThat(report.diagnostics()).map(Diagnostic::format).containsExactly(
          "m.yaml:2:1: warning: machine `pingpong` has no final state, so its tasks never finish"
              + " (add a state with `final: completed` or `final: failed`)");
      assertThat(report.hasErrors()).isFalse();
    }

    @Test
    void timeoutAndRetryOnANonActionStateAreWarnings() {
      FileReport report = Validator.check(FILE, """
          machine: a
          states:
            s:
              wait: 1s
              timeout: 5s
              retry: {max_errors: 2}
              on: {ok: t}
            t:
              timeout: p90
              on: {go: e}
            e: {final: completed}
          """);
      assertThat(report.diagnostics()).map(Diagnostic::format).containsExactly(
          "m.yaml:5:5: warning: `timeout` has no effect in state `s`: it applies to states that"
              + " `run` an action (remove it)",
          "m.yaml:6:5: warning: `retry` has no effect in state `s`: it applies to states that"
              + " `run` an action (remove it)",
          "m.yaml:9:5: warning: `timeout` has no effect in state `t`: it applies to states that"
              + " `run` an action (remove it)");
      assertThat(report.hasErrors()).isFalse();
    }
  }

  @Nested
  class ErrorEdges {

    @Test
    void retryWithAnErrorEdgeIsAWarningNamingTheRetry() {
      FileReport report = Validator.check(FILE, """
          machine: a
          states:
            s:
              run: builtin:fail down
              retry: {max_errors: 3, backoff: 0s}
              on: {ok: e, error: e}
            e: {final: completed}
          """);
      assertThat(report.diagnostics()).map(Diagnostic::format).containsExactly(
          "m.yaml:5:5: warning: `retry` in state `s` never applies: its `error` edge takes every"
              + " error at once (remove `retry`, or to retry first and then move on, rename the"
              + " edge `error` to `exhausted`)");
      assertThat(report.hasErrors()).isFalse();
      assertThat(report.machine()).as("a warning keeps the machine usable").isPresent();
    }

    @Test
    void errorAndExhaustedEdgesTogetherAreAWarningAtTheExhaustedEdge() {
      FileReport report = Validator.check(FILE, """
          machine: a
          states:
            s:
              run: builtin:fail down
              on: {ok: e, error: e, exhausted: r}
            r: {on: {done: e}}
            e: {final: completed}
          """);
      assertThat(report.diagnostics()).map(Diagnostic::format).containsExactly(
          "m.yaml:5:38: warning: event `exhausted` of state `s` can never fire: its `error` edge"
              + " takes every error before the retry policy could give up (remove one of them:"
              + " `error` moves on at the first error, `exhausted` once the retries are used up)");
      assertThat(report.hasErrors()).isFalse();
    }

    @Test
    void bothWarningsForAStateWithRetryErrorAndExhausted() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:noop, retry: {max_errors: 2}, on: {ok: e, error: e, exhausted: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:26: warning: `retry` in state `s` never applies: its `error` edge takes every"
              + " error at once (remove `retry`, or to retry first and then move on, rename the"
              + " edge `error` to `exhausted`)",
          "m.yaml:3:83: warning: event `exhausted` of state `s` can never fire: its `error` edge"
              + " takes every error before the retry policy could give up (remove one of them:"
              + " `error` moves on at the first error, `exhausted` once the retries are used up)");
    }

    @Test
    void retryWithExhaustedOrDefaultRetryWithErrorIsFine() {
      assertThat(lines("""
          machine: a
          defaults:
            retry: {max_errors: 2}
          states:
            s: {run: builtin:noop, retry: {max_errors: 3}, on: {ok: t, exhausted: e}}
            t: {run: builtin:noop, on: {ok: e, error: e}}
            e: {final: completed}
          """)).as("the defaults' retry is for the states without an error edge").isEmpty();
    }

    @Test
    void anExhaustedEdgeOnAStateThatRunsNoActionNeverFires() {
      assertThat(lines("""
          machine: a
          states:
            s: {wait: 1s, on: {ok: t, exhausted: e}}
            t: {on: {go: e, exhausted: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:40: warning: event `exhausted` of state `s` can never fire: only states that"
              + " `run` an action retry errors (remove it)",
          "m.yaml:4:30: warning: event `exhausted` of state `t` can never fire: only states that"
              + " `run` an action retry errors (remove it)");
    }

    @Test
    void anActionCannotEmitTheReservedExhaustedEvent() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:emit exhausted, on: {exhausted: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:12: error: `builtin:emit exhausted` in state `s` emits `exhausted`, which is"
              + " reserved: the retry policy fires it when it gives up (emit another event; to"
              + " move on after failed attempts, let the action fail and keep the `exhausted`"
              + " edge)");
    }
  }

  @Nested
  class Values {

    @Test
    void durationWithoutUnit() {
      assertThat(lines("""
          machine: a
          states:
            s: {wait: 30, on: {ok: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:13: error: `wait` in state `s`: duration `30` has no unit; write `30s`,"
              + " `30m` or another unit");
    }

    @Test
    void durationInTheWrongOrder() {
      assertThat(lines("""
          machine: a
          defaults:
            retry: {window: 30m1h}
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:3:19: error: `window` in `defaults`: bad duration `30m1h`; give each unit once,"
              + " largest first, like `1h30m`");
    }

    @Test
    void garbageDurations() {
      assertThat(lines("""
          machine: a
          states:
            s:
              run: builtin:sleep soon
              timeout: 5 minutes
              retry: {backoff: 5x}
              on: {ok: w}
            w: {wait: 0, on: {ok: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:4:10: error: `run` of state `s`: bad duration `soon`; use a number and a unit"
              + " (ms, s, m, h, d), like `30s` or `1h30m`",
          "m.yaml:5:14: error: `timeout` in state `s`: bad duration `5 minutes`; use a number and"
              + " a unit (ms, s, m, h, d), like `30s` or `1h30m` (use a percentile like `p95`, a"
              + " duration like `30s`, or `0` for no timeout)",
          "m.yaml:6:22: error: `backoff` in state `s`: bad duration `5x`; use a number and a unit"
              + " (ms, s, m, h, d), like `30s` or `1h30m`",
          "m.yaml:8:13: error: `wait` in state `w` must be longer than 0");
    }

    @Test
    void badPercentiles() {
      assertThat(lines("""
          machine: a
          defaults: {timeout: p100}
          states:
            s:
              run: builtin:noop
              timeout: p0
              on: {ok: e}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:2:21: error: `timeout` in `defaults`: bad percentile `p100`; write one like"
              + " `p95` or `p99.9` (use a percentile like `p95`, a duration like `30s`, or `0`"
              + " for no timeout)",
          "m.yaml:6:14: error: `timeout` in state `s`: percentile `p0` must be above p0 (use a"
              + " percentile like `p95`, a duration like `30s`, or `0` for no timeout)");
    }

    @Test
    void maxErrorsAndWindowMustBePositive() {
      assertThat(lines("""
          machine: a
          defaults:
            retry: {max_errors: 0, window: 0}
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:3:23: error: `max_errors` in `defaults` must be a whole number of 1 or more,"
              + " found `0`",
          "m.yaml:3:34: error: `window` in `defaults` must be longer than 0");
      assertThat(lines("machine: a\ndefaults: {retry: {max_errors: 2.5}}\nstates: {s: {final:"
          + " completed}}\n")).singleElement().asString()
          .endsWith("`max_errors` in `defaults` must be a whole number of 1 or more, found `2.5`");
    }

    @Test
    void backoffMaxShorterThanInitial() {
      assertThat(lines("""
          machine: a
          defaults:
            retry:
              backoff:
                initial: 5m
                max: 1s
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:6:12: error: backoff max must not be shorter than initial in `defaults`");
    }

    @Test
    void backoffMultiplierBelowOne() {
      assertThat(lines("""
          machine: a
          defaults:
            retry:
              backoff:
                initial: 1s
                multiplier: 0.5
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:6:19: error: backoff multiplier must be at least 1 in `defaults`");
    }

    @Test
    void backoffJitterAboveOne() {
      assertThat(lines("""
          machine: a
          defaults:
            retry:
              backoff:
                initial: 1s
                jitter: 1.5
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:6:15: error: backoff jitter must be between 0 and 1 in `defaults`");
    }

    @Test
    void everyBrokenBackoffRuleIsReported() {
      assertThat(lines("""
          machine: a
          states:
            s:
              run: builtin:noop
              retry: {max_errors: 3, window: 1h, backoff: {initial: 1s, max: 5m, multiplier: 0.5, jitter: 3}}
              on: {ok: e}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:5:84: error: backoff multiplier must be at least 1 in state `s`",
          "m.yaml:5:97: error: backoff jitter must be between 0 and 1 in state `s`");
      assertThat(lines("""
          machine: a
          defaults:
            retry:
              backoff: {initial: 10m, max: 5m, multiplier: 0.5, jitter: 3}
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:4:34: error: backoff max must not be shorter than initial in `defaults`",
          "m.yaml:4:50: error: backoff multiplier must be at least 1 in `defaults`",
          "m.yaml:4:63: error: backoff jitter must be between 0 and 1 in `defaults`");
    }

    @Test
    void backoffRulesAreCheckedBesideOtherBackoffProblems() {
      assertThat(lines("""
          machine: a
          defaults:
            retry: {max_errors: 0, backoff: {max: 5m, multiplier: 0.5, jitter: x}}
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:3:23: error: `max_errors` in `defaults` must be a whole number of 1 or more,"
              + " found `0`",
          "m.yaml:3:35: error: `backoff` in `defaults` needs `initial` (for example {initial:"
              + " 1s, max: 5m, multiplier: 2, jitter: 0.2})",
          "m.yaml:3:57: error: backoff multiplier must be at least 1 in `defaults`",
          "m.yaml:3:70: error: backoff `jitter` in `defaults` must be a number, found `x`");
    }

    @Test
    void backoffNumbersMustBeNumbers() {
      assertThat(lines("""
          machine: a
          defaults:
            retry: {backoff: {initial: 1s, multiplier: two, jitter: -0.1}}
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:3:46: error: backoff `multiplier` in `defaults` must be a number, found `two`",
          "m.yaml:3:59: error: backoff `jitter` in `defaults` must be a number, found `-0.1`");
    }

    @Test
    void backoffMappingWithoutInitial() {
      assertThat(lines("""
          machine: a
          defaults:
            retry: {backoff: {max: 5m}}
          states:
            s: {final: completed}
          """)).containsExactly(
          "m.yaml:3:20: error: `backoff` in `defaults` needs `initial` (for example {initial:"
              + " 1s, max: 5m, multiplier: 2, jitter: 0.2})");
    }
  }

  @Nested
  class Actions {

    @TempDir
    Path dir;

    private List<String> linesOf(String yaml) throws IOException {
      Path file = dir.resolve("m.yaml");
      Files.writeString(file, yaml);
      return Validator.check(file).diagnostics().stream().map(Diagnostic::format)
          .map(l -> l.replace(dir.toString(), "DIR")).toList();
    }

    private void script(String name, String perms) throws IOException {
      Path p = dir.resolve(name);
      Files.createDirectories(p.getParent());
      Files.writeString(p, "#!/bin/sh\nexit 0\n");
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(perms));
    }

    @Test
    void existingExecutableProgramsAreFine() throws IOException {
      script("scripts/ok.sh", "rwxr-xr-x");
      assertThat(linesOf("""
          machine: a
          states:
            s: {run: scripts/ok.sh --flag, on: {ok: t}}
            t: {run: [./scripts/ok.sh], on: {ok: u}}
            u: {run: sh -c true, on: {ok: e}}
            e: {final: completed}
          """)).isEmpty();
    }

    @Test
    void programThatDoesNotExist() throws IOException {
      assertThat(linesOf("""
          machine: a
          states:
            s:
              run: scripts/missing.sh --x
              on: {ok: e}
            e: {final: completed}
          """)).containsExactly(
          "DIR/m.yaml:4:10: error: program `scripts/missing.sh` does not exist (state `s`)"
              + " (looked for DIR/scripts/missing.sh; relative paths start at the machine file's"
              + " folder)");
    }

    @Test
    void programThatIsNotExecutable() throws IOException {
      script("scripts/plain.sh", "rw-r--r--");
      assertThat(linesOf("""
          machine: a
          states:
            s: {run: [scripts/plain.sh, x], on: {ok: e}}
            e: {final: completed}
          """)).containsExactly(
          "DIR/m.yaml:3:12: error: program `scripts/plain.sh` is not executable (state `s`) (run"
              + " `chmod +x DIR/scripts/plain.sh`)");
    }

    @Test
    void programThatIsAFolder() throws IOException {
      Files.createDirectories(dir.resolve("scripts"));
      assertThat(linesOf("""
          machine: a
          states:
            s: {run: ./scripts, on: {ok: e}}
            e: {final: completed}
          """)).containsExactly(
          "DIR/m.yaml:3:12: error: program `./scripts` is a folder, not a program (state `s`)");
    }

    @Test
    void programNotOnPath() throws IOException {
      assertThat(linesOf("""
          machine: a
          states:
            s: {run: no-such-program-fsm-test, on: {ok: e}}
            e: {final: completed}
          """)).containsExactly(
          "DIR/m.yaml:3:12: error: program `no-such-program-fsm-test` is not on PATH (state `s`)"
              + " (install it, or give a path relative to the machine file, e.g."
              + " `scripts/no-such-program-fsm-test`)");
    }

    @Test
    void unclosedQuote() {
      assertThat(lines("""
          machine: a
          states:
            s:
              run: scripts/x.sh 'unclosed
              on: {ok: e}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:4:10: error: `run` of state `s` cannot be split into words: unclosed single"
              + " quote (close the quote, or write `run:` as a list of words)");
    }

    @Test
    void emptyRun() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: "", on: {ok: t}}
            t: {run: [], on: {ok: u}}
            u: {run: ["  "], on: {ok: v}}
            v: {run: , on: {ok: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:12: error: `run` of state `s` is empty (name the program to run)",
          "m.yaml:4:12: error: `run` of state `t` is empty (name the program to run)",
          "m.yaml:5:12: error: `run` of state `u` is empty (name the program to run)",
          "m.yaml:6:11: error: `run` of state `v` must be a value, found nothing");
    }

    @Test
    void runListWithNonValues() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: [sh, [x]], on: {ok: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:17: error: each word of `run` of state `s` must be a value, found a list");
    }

    @Test
    void unknownBuiltin() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:nop, on: {ok: t}}
            t: {run: builtin:exec ls, on: {ok: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:12: error: `run` of state `s`: unknown built-in `nop` (did you mean `noop`?)",
          "m.yaml:4:12: error: `run` of state `t`: unknown built-in `exec` (built-ins: noop,"
              + " fail, sleep, emit)");
    }

    @Test
    void builtinWithWrongArguments() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:sleep, on: {ok: t}}
            t: {run: builtin:noop now, on: {ok: u}}
            u: {run: builtin:emit a b, on: {a: e}}
            v: {run: builtin:fail why not, on: {error: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:12: error: `run` of state `s`: `builtin:sleep` has the wrong arguments"
              + " (write `builtin:sleep <duration>`)",
          "m.yaml:4:12: error: `run` of state `t`: `builtin:noop now` has the wrong arguments"
              + " (write `builtin:noop`)",
          "m.yaml:5:12: error: `run` of state `u`: `builtin:emit a b` has the wrong arguments"
              + " (write `builtin:emit <event>`)",
          "m.yaml:6:3: error: state `v` cannot be reached from the initial state `s` (add an"
              + " edge to it, or remove it)");
    }

    @Test
    void builtinsWithoutAnEdgeForTheirEvent() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: builtin:emit shipped, on: {shiped: t}}
            t: {run: builtin:noop, on: {done: u}}
            u: {run: builtin:sleep 1s, on: {error: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:12: error: `builtin:emit shipped` in state `s` emits `shipped`, but the state"
              + " has no edge for it (did you mean `shiped`?)",
          "m.yaml:4:12: error: `builtin:noop` in state `t` emits `ok`, but the state has no edge"
              + " for it (add `ok: NEXT_STATE` under `on:`)",
          "m.yaml:5:12: error: `builtin:sleep 1s` in state `u` emits `ok`, but the state has no"
              + " edge for it (add `ok: NEXT_STATE` under `on:`)");
    }

    @Test
    void badJavaClassName() {
      assertThat(lines("""
          machine: a
          states:
            s: {run: java:1bad.Name, on: {ok: t}}
            t: {run: java:com.example.Charge now, on: {ok: u}}
            u: {run: "java:", on: {ok: e}}
            e: {final: completed}
          """)).containsExactly(
          "m.yaml:3:12: error: `run` of state `s`: `java:1bad.Name` is not a Java class name"
              + " (write `java:com.example.ChargeCard`)",
          "m.yaml:4:12: error: `run` of state `t`: `java:com.example.Charge now` is not a Java"
              + " class name (write `java:com.example.ChargeCard`)",
          "m.yaml:5:12: error: `run` of state `u`: `java:` is not a Java class name (write"
              + " `java:com.example.ChargeCard`)");
    }
  }

  @Nested
  class Folders {

    @TempDir
    Path dir;

    private static final String BODY = "states:\n  s: {final: completed}\n";

    @Test
    void duplicateMachineNamesInAFolder() throws IOException {
      Files.writeString(dir.resolve("a.yaml"), "machine: order\n" + BODY);
      Files.writeString(dir.resolve("b.yml"), "# copy\nmachine:   order\n" + BODY);
      Files.writeString(dir.resolve("c.yaml"), "machine: other\n" + BODY);
      Files.writeString(dir.resolve("notes.txt"), "not a machine");
      ValidationReport report = Validator.validate(List.of(dir));
      assertThat(report.files()).hasSize(3);
      assertThat(report.diagnostics()).map(Diagnostic::format).containsExactly(
          dir.resolve("b.yml") + ":2:12: error: duplicate machine name `order`: "
              + dir.resolve("a.yaml") + " defines it too (machine names must be unique in a"
              + " folder; rename one of them)");
      assertThat(report.errorCount()).isEqualTo(1);
      assertThat(report.hasErrors()).isTrue();
    }

    @Test
    void sameNameInDifferentFoldersIsFine() throws IOException {
      Files.createDirectories(dir.resolve("x"));
      Files.createDirectories(dir.resolve("y"));
      Files.writeString(dir.resolve("x/a.yaml"), "machine: order\n" + BODY);
      Files.writeString(dir.resolve("y/a.yaml"), "machine: order\n" + BODY);
      assertThat(Validator.validate(List.of(dir.resolve("x"), dir.resolve("y"))).diagnostics())
          .isEmpty();
    }

    @Test
    void theSameFileNamedTwiceIsNotADuplicate() throws IOException {
      Path a = Files.writeString(dir.resolve("a.yaml"), "machine: order\n" + BODY);
      ValidationReport report = Validator.validate(
          List.of(dir, a, dir.resolve("../" + dir.getFileName() + "/a.yaml")));
      assertThat(report.diagnostics()).isEmpty();
      assertThat(report.files()).hasSize(1);
    }

    @Test
    void countsErrorsAndWarningsOverFiles() throws IOException {
      Files.writeString(dir.resolve("a.yaml"), "machine: a\nstates:\n  s: {on: {go: s}}\n");
      Files.writeString(dir.resolve("b.yaml"), "machine: b\nstates:\n  s: {final: maybe}\n");
      ValidationReport report = Validator.validate(List.of(dir));
      assertThat(report.errorCount()).isEqualTo(1);
      assertThat(report.warningCount()).isEqualTo(1);
      assertThat(report.diagnostics()).map(d -> d.file().getFileName().toString())
          .containsExactly("a.yaml", "b.yaml");
    }

    @Test
    void aFolderWithoutMachineFiles() throws IOException {
      Files.writeString(dir.resolve("readme.md"), "# nothing");
      assertThatThrownBy(() -> Validator.validate(List.of(dir)))
          .isInstanceOf(FsmException.class)
          .hasMessage("no machine files (*.yaml, *.yml) in folder " + dir);
    }

    @Test
    void aMissingPath() {
      Path missing = dir.resolve("nope.yaml");
      assertThatThrownBy(() -> Validator.validate(List.of(missing)))
          .isInstanceOf(FsmException.class)
          .hasMessage("no such file or folder: " + missing);
    }

    @Test
    void checkingAMissingFileOrAFolderIsADiagnostic() {
      assertThat(Validator.check(dir.resolve("nope.yaml")).diagnostics())
          .map(Diagnostic::text).containsExactly("cannot read file: no such file");
      assertThat(Validator.check(dir).diagnostics())
          .map(Diagnostic::text).containsExactly("is a folder, not a machine file");
    }
  }
}
