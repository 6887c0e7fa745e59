package dev.fsm.cli.verb.task;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads {@code --limit}: a whole number of at least 1. A number too large for an int asks for
 * everything, as {@code head -n} takes it, so it reads as the largest one.
 */
final class Limit implements ITypeConverter<Integer> {

  @Override
  public Integer convert(String value) {
    String t = value.strip();
    if (!t.matches("[+-]?[0-9]+")) {
      throw new TypeConversionException("`" + value + "` is not a whole number; give one of at"
          + " least 1, such as 50");
    }
    String digits = t.replaceFirst("^[+-]?0*", "");
    if (digits.isEmpty() || t.startsWith("-")) {
      throw new TypeConversionException("`" + value + "` is too few; give at least 1");
    }
    return digits.length() > 10 || Long.parseLong(digits) > Integer.MAX_VALUE
        ? Integer.MAX_VALUE : Integer.parseInt(digits);
  }
}
