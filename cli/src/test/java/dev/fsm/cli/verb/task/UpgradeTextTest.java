package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.operations.UpgradeReport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plan and the report of {@code fsm upgrade} say which moving tasks may go to fault. */
class UpgradeTextTest {

  @Test
  void runningTasksWhoseOutcomeMayLeaveThemInAMissingStateAreNamed() {
    Map<String, Integer> two = Map.of("c", 2, "b", 10);
    assertThat(line(report(40, Map.of("b", 12), true))).isEqualTo("  v1: 40 tasks would move to"
        + " v2 when their running attempt ends (12 of them may then go to fault: the outcome may"
        + " leave them in `b`, which v2 lacks)");
    assertThat(line(report(12, two, false))).isEqualTo("  v1: 12 tasks move to v2 when their"
        + " running attempt ends (all of them may then go to fault: the outcome may leave them"
        + " in `b` (10), `c` (2), which v2 lacks)");
    assertThat(line(report(1, Map.of("b", 1), false))).isEqualTo("  v1: 1 task moves to v2 when"
        + " its running attempt ends (it may then go to fault: the outcome may leave it in `b`,"
        + " which v2 lacks)");
    assertThat(line(report(3, Map.of(), false)))
        .isEqualTo("  v1: 3 tasks move to v2 when their running attempt ends");
  }

  @Test
  void aDryRunSaysItWouldRegisterANewVersionAndRegisteredNothing() throws Exception {
    assertThat(json(report(1, Map.of(), true))).contains("\"new_version\":true,"
        + "\"registered\":false,").contains("\"dry_run\":true");
    assertThat(json(report(1, Map.of(), false))).contains("\"new_version\":true,"
        + "\"registered\":true,").contains("\"dry_run\":false");
  }

  private static String json(UpgradeReport r) throws Exception {
    StringWriter out = new StringWriter();
    try (com.fasterxml.jackson.core.JsonGenerator g =
        new com.fasterxml.jackson.core.JsonFactory().createGenerator(out)) {
      UpgradeText.json(g, r);
    }
    return out.toString();
  }

  private static UpgradeReport report(int moving, Map<String, Integer> mayFault, boolean dry) {
    return new UpgradeReport("job", 2, "0123456789ab", true, "upgrade",
        List.of(new UpgradeReport.FromVersion(1, "ba9876543210", 0, 0, moving, mayFault,
            Map.of(), 0)), dry);
  }

  private static String line(UpgradeReport r) {
    StringWriter out = new StringWriter();
    UpgradeText.print(new PrintWriter(out, true), r);
    return out.toString().lines().skip(1).findFirst().orElseThrow();
  }
}
