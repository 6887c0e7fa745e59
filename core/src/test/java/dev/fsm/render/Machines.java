package dev.fsm.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.model.Machine;
import dev.fsm.validate.FileReport;
import dev.fsm.validate.Validator;
import java.nio.file.Path;

/** Machines for the render tests, read and validated from YAML like a user's file. */
final class Machines {

  static final String ORDER = """
      machine: order
      initial: pay
      states:
        pay:
          run: builtin:noop
          timeout: 10s
          on: {ok: ship, declined: cancelled}
        ship:
          run: builtin:emit ok
          on: {ok: await_signature, error: ship_later, timeout: ship_later}
        ship_later:
          wait: 5m
          on: {ok: ship}
        await_signature:
          on: {signed: delivered, refused: cancelled}
        delivered: {final: completed}
        cancelled: {final: failed}
      """;

  private Machines() {}

  static Machine order() {
    return read(ORDER);
  }

  static Machine read(String yaml) {
    FileReport report = Validator.check(Path.of("order.yaml"), yaml);
    assertThat(report.diagnostics()).filteredOn(d -> d.isError()).isEmpty();
    return report.machine().orElseThrow();
  }
}
