package dev.fsm.access;

import dev.fsm.operations.Operations;
import java.lang.reflect.Proxy;
import java.util.List;

/** An operator service that answers only what these tests ask: two machine names and its way. */
final class FakeOperations {

  private FakeOperations() {}

  /** An {@link Operations} reached {@code via}; every other call but close is a test bug. */
  static Operations answering(String via) {
    return (Operations) Proxy.newProxyInstance(Operations.class.getClassLoader(),
        new Class<?>[] {Operations.class}, (proxy, method, args) -> switch (method.getName()) {
          case "machineNames" -> List.of("a", "b");
          case "via" -> via;
          case "close" -> null;
          case "toString" -> "FakeOperations(" + via + ")";
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }
}
