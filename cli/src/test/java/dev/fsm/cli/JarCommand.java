package dev.fsm.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The java command line that runs {@code fsm.jar} in an integration test, with the JVM flags
 * {@code bin/fsm} gives a one-shot verb and a class-data archive of the jar made once per test
 * run. The integration tests start thousands of JVMs on a 2-core machine; measured, this halves
 * the CPU of each one-shot verb (2.8 s instead of 6.3 s of user time for five `ls`). What fsm does is the same either way; {@link LauncherIT} tests the
 * launcher itself.
 */
final class JarCommand {

  private static Path archive;
  private static boolean archiveTried;

  private JarCommand() {}

  /** {@code java [flags] -jar fsm.jar ARGS...}. */
  static List<String> of(List<String> args) {
    return of(args, Map.of());
  }

  /**
   * {@code java [flags] -jar fsm.jar ARGS...} for a process with this extra environment: JVM
   * logging stays on when the test asks for it through {@code JDK_JAVA_OPTIONS} (those come
   * first, and {@code -Xlog:disable} would turn them off).
   */
  static List<String> of(List<String> args, Map<String, String> env) {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.add("-XX:-UsePerfData");
    if (!env.getOrDefault("JDK_JAVA_OPTIONS", "").contains("-Xlog")) {
      command.add("-Xlog:disable");
    }
    // Unlike bin/fsm, runners too: a test's runner does a few hundred transitions, and C2's
    // compiler threads would take the second core from the verbs the test runs beside it.
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    Path cds = archive();
    if (cds != null) {
      command.add("-XX:SharedArchiveFile=" + cds);
    }
    command.add("-jar");
    command.add(FsmJar.jar().toString());
    command.addAll(args);
    return command;
  }

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * The jar's class-data archive, made from the launcher's training run the first time it is
   * asked for; null when it cannot be made (the JVMs then start without one).
   */
  private static synchronized Path archive() {
    if (archiveTried) {
      return archive;
    }
    archiveTried = true;
    Path jar = FsmJar.jar();
    try {
      Path dir = jar.getParent().resolve("it-cds");
      Files.createDirectories(dir);
      Path target = dir.resolve("fsm-" + Files.size(jar) + "-"
          + Files.getLastModifiedTime(jar).toMillis() + ".jsa");
      if (!Files.exists(target)) {
        Path classes = dir.resolve("classes.txt");
        Path tmp = dir.resolve("fsm.jsa.tmp");
        if (!runQuietly(List.of(java(), "-XX:DumpLoadedClassList=" + classes, "-Xlog:disable",
            "-cp", jar.toString(), "dev.fsm.cli.Training", "full"))
            || !runQuietly(List.of(java(), "-Xshare:dump", "-XX:SharedClassListFile=" + classes,
                "-XX:SharedArchiveFile=" + tmp, "-Xlog:disable", "-cp", jar.toString()))) {
          return null;
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      }
      archive = target;
    } catch (IOException e) {
      archive = null;
    }
    return archive;
  }

  private static boolean runQuietly(List<String> command) throws IOException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    try {
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
