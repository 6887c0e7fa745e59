package dev.fsm.control.wire;

import java.util.HashMap;
import java.util.Map;

/** The arguments one request carried, as read before its operation was looked up. */
public final class Arguments {

  private final Map<String, Object> values = new HashMap<>();

  void put(Arg<?> arg, Object value) {
    values.put(arg.name(), value);
  }

  /** The argument's value, or its {@link Arg#absent()} value when the request left it out. */
  @SuppressWarnings("unchecked") // put stores each name's value as read by that argument's codec
  <T> T get(Arg<T> arg) {
    Object value = values.get(arg.name());
    return value == null ? arg.absent() : (T) value;
  }
}
