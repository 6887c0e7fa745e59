package dev.fsm.cli.common;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** fsm's version, from the build's {@code version.properties}. */
public final class BuildVersion {

  private BuildVersion() {}

  /** E.g. {@code 0.18.0}, or {@code dev} when run from classes the build did not stamp. */
  public static String get() throws IOException {
    Properties p = new Properties();
    try (InputStream in = BuildVersion.class.getResourceAsStream(
        "/dev/fsm/cli/version.properties")) {
      if (in != null) {
        p.load(in);
      }
    }
    return p.getProperty("version", "dev");
  }
}
