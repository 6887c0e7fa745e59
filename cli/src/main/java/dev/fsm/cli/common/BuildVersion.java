package dev.fsm.cli.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** fsm's version and build time, from the build's {@code version.properties}. */
public final class BuildVersion {

  private BuildVersion() {}

  /** E.g. {@code 0.18.0}, or {@code dev} when run from classes the build did not stamp. */
  public static String get() throws IOException {
    return properties().getProperty("version", "dev");
  }

  /** When the jar was built, ISO-8601 in UTC, or {@code unknown}. */
  public static String built() {
    try {
      String built = properties().getProperty("built", "");
      return built.isEmpty() || built.startsWith("${") ? "unknown" : built;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read fsm's version.properties", e);
    }
  }

  private static Properties properties() throws IOException {
    Properties p = new Properties();
    try (InputStream in = BuildVersion.class.getResourceAsStream(
        "/dev/fsm/cli/version.properties")) {
      if (in != null) {
        p.load(in);
      }
    }
    return p;
  }
}
