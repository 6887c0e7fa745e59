package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.cli.common.StopSignal;
import dev.fsm.control.OwnerLostException;
import dev.fsm.operations.Operations;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A live view's polls: asked again when the runner went away, each change of owner said once. */
class LiveAccessTest {

  private final StringWriter err = new StringWriter();
  private final Deque<Operations> controls = new ArrayDeque<>();
  private final LiveAccess access = new LiveAccess(controls::removeFirst, "fsm watch",
      new PrintWriter(err, true), new StopSignal());

  /** A control served by {@code via} whose {@code counts()} answers, or throws {@code fails}. */
  private static Operations control(String via, RuntimeException fails) {
    return (Operations) Proxy.newProxyInstance(Operations.class.getClassLoader(),
        new Class<?>[] {Operations.class}, (proxy, method, args) -> switch (method.getName()) {
          case "via" -> via;
          case "close" -> null;
          case "counts" -> {
            if (fails != null) {
              throw fails;
            }
            yield List.of();
          }
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  private Optional<Object> poll() {
    return access.poll(Operations::counts);
  }

  @Test
  void aPollCutOffByALostRunnerIsAskedAgainOfTheStoreAndTheChangeIsSaidOnce() {
    controls.add(control("runner pid 7", null));
    controls.add(control("runner pid 7", new OwnerLostException("runner pid 7 hung up", null)));
    controls.add(control("local", null));
    controls.add(control("local", null));
    controls.add(control("runner pid 9", null));
    for (int i = 0; i < 4; i++) {
      assertThat(poll()).contains(List.of());
    }
    assertThat(controls).isEmpty();
    assertThat(err.toString()).isEqualTo("""
        fsm watch: runner pid 7 is gone; reading the store directly
        fsm watch: reading through runner pid 9
        """);
  }

  @Test
  void otherErrorsEndTheView() {
    controls.add(control("local", new FsmException("no task `x`")));
    assertThatThrownBy(this::poll).hasMessage("no task `x`");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void aStoppedViewStopsWaiting() {
    StopSignal stop = new StopSignal();
    stop.fire();
    LiveAccess stopped = new LiveAccess(() -> control("runner pid 7",
        new OwnerLostException("gone", null)), "fsm tail", new PrintWriter(err, true), stop);
    assertThat(stopped.poll(Operations::counts)).isEmpty();
  }
}
