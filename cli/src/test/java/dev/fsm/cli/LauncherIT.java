package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/fsm: same output as the bare jar, a start-up cache that appears and is used, no noise.
 *
 * <p>Not isolated: nothing here bounds elapsed time (the cache has 90 s to appear, each command
 * 60 s), and every cache lives in the test's own folder, so the class runs beside another.
 */
class LauncherIT {

  @TempDir Path cache;
  @TempDir Path work;

  @Test
  void recordsAStartUpCacheAndPrintsExactlyWhatTheJarPrints() throws Exception {
    Path machines = FsmJar.repo().resolve("machines");
    String[] line = {"--output", "json", "validate", machines.toString()};
    FsmJar.Result jar = FsmJar.run(work, line);

    FsmJar.Result first = launcher(Map.of(), line);
    assertThat(first).isEqualTo(jar);

    Path cacheFile = awaitCacheFile(p -> true);
    assertThat(Files.size(cacheFile)).isGreaterThan(1_000_000);

    FsmJar.Result cached = launcher(Map.of(), line);
    assertThat(cached).isEqualTo(jar);

    Files.write(cacheFile, new byte[4096]);
    assertThat(launcher(Map.of(), line)).as("a damaged cache is harmless").isEqualTo(jar);
  }

  @Test
  void aLockLeftByAKilledRecordingDoesNotStopTheCacheForever() throws Exception {
    assertThat(launcher(Map.of(), "validate", "--help").exit()).isZero();
    Path cacheFile = awaitCacheFile(p -> true);
    Path lock = cacheFile.resolveSibling(cacheFile.getFileName() + ".lock");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (Files.exists(lock) && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(50);  // The recording removes its lock just after the cache.
    }
    Files.delete(cacheFile);
    Files.createDirectory(lock);
    Files.setLastModifiedTime(lock, java.nio.file.attribute.FileTime.fromMillis(
        System.currentTimeMillis() - TimeUnit.MINUTES.toMillis(20)));
    assertThat(launcher(Map.of(), "validate", "--help").exit()).isZero();
    assertThat(awaitCacheFile(p -> true)).isEqualTo(cacheFile);
  }

  @Test
  void aReplacedJarGetsAFreshCacheEvenWhenItIsOlder() throws Exception {
    // JDK 25 would run a stale AOT cache's classes; the launcher's key must notice the change.
    Path jar = work.resolve("fsm.jar");
    Files.copy(FsmJar.jar(), jar);
    Map<String, String> env = Map.of("FSM_JAR", jar.toString());
    assertThat(launcher(env, "validate", "--help").exit()).isZero();
    Path first = awaitCacheFile(p -> true);

    try (var in = new java.util.zip.ZipInputStream(Files.newInputStream(FsmJar.jar()));
        var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(jar))) {
      for (var entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
        out.putNextEntry(new java.util.zip.ZipEntry(entry.getName()));
        in.transferTo(out);
      }
      out.putNextEntry(new java.util.zip.ZipEntry("replaced.txt"));
      out.write("a different jar".getBytes(StandardCharsets.UTF_8));
    }
    Files.setLastModifiedTime(jar, java.nio.file.attribute.FileTime.fromMillis(1_577_836_800_000L));
    assertThat(launcher(env, "validate", "--help").exit()).isZero();
    Path second = awaitCacheFile(p -> !p.equals(first));
    assertThat(second.getFileName().toString()).isNotEqualTo(first.getFileName().toString());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (Files.exists(first) && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(50);
    }
    assertThat(first).as("the old jar's cache is retired").doesNotExist();
  }

  @Test
  void runsWithTheJdkOnPathWhenAskedAndWithoutACache() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    FsmJar.Result r = launcher(Map.of("FSM_JAVA", java, "FSM_NO_CACHE", "1"), "--version");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("fsm 0.").contains("Java " + System.getProperty("java.version"));
    assertThat(r.err()).isEmpty();
    try (Stream<Path> files = Files.list(cache)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void theStoreRunsWithoutJvmWarningsOnTheLaunchersJdk() throws Exception {
    // MapDB's LZ4 loads a native library, which JDK 22+ reports on stderr unless allowed.
    FsmJar.Result r = launcher(Map.of("FSM_NO_CACHE", "1"), "bench", "--store-only", "--tasks",
        "200", "--seconds", "0.2", "--writers", "1", "--dir", work.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).doesNotContain("WARNING");
  }

  @Test
  void boundsTheHeapAndTakesAnotherLimitFromFsmHeap() throws Exception {
    Map<String, String> flags = Map.of("FSM_NO_CACHE", "1", "JDK_JAVA_OPTIONS",
        "-XX:+PrintFlagsFinal");
    assertThat(launcher(flags, "--version").out())
        .containsPattern("MaxHeapSize += " + (256L << 20) + " ");
    Map<String, String> more = new java.util.HashMap<>(flags);
    more.put("FSM_HEAP", "1g");
    assertThat(launcher(more, "--version").out())
        .containsPattern("MaxHeapSize += " + (1L << 30) + " ");
  }

  @Test
  void aRunnerGetsASmallerSerialHeapThatFsmHeapStillOverrides() throws Exception {
    Map<String, String> flags = Map.of("FSM_NO_CACHE", "1", "JDK_JAVA_OPTIONS",
        "-XX:+PrintFlagsFinal");
    String run = launcher(flags, "--store", "s", "run", "--help").out();
    assertThat(run).containsPattern("MaxHeapSize += " + (128L << 20) + " ")
        .containsPattern("UseSerialGC += true ")
        .containsPattern("ArchiveRelocationMode += 0 ")
        .containsPattern("TieredStopAtLevel += 4 ");
    if (launcherJdk() >= 22) {
      assertThat(run).containsPattern("TrimNativeHeapInterval += 5000 ");
    }
    assertThat(launcher(flags, "bench", "--help").out())
        .containsPattern("MaxHeapSize += " + (128L << 20) + " ");
    Map<String, String> more = new java.util.HashMap<>(flags);
    more.put("FSM_HEAP", "512m");
    assertThat(launcher(more, "run", "--help").out())
        .containsPattern("MaxHeapSize += " + (512L << 20) + " ");
    assertThat(launcher(flags, "ls", "--help").out())
        .containsPattern("MaxHeapSize += " + (256L << 20) + " ")
        .containsPattern("TieredStopAtLevel += 1 ");
  }

  @Test
  void aRunnerUsesTheStartUpCacheTooWithItsOwnFlags() throws Exception {
    assertThat(launcher(Map.of(), "version").exit()).isZero();
    Path cacheFile = awaitCacheFile(p -> p.toString().contains("-full."));
    // Strict mode: the JVM exits with an error when it cannot use the cache it is given.
    String strict = cacheFile.toString().endsWith(".aot") ? "-XX:AOTMode=on" : "-Xshare:on";
    Map<String, String> env = Map.of("JDK_JAVA_OPTIONS", strict);
    FsmJar.Result run = launcher(env, "run", "--help");
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("Usage: fsm run");

    Files.write(cacheFile, new byte[4096]);
    assertThat(launcher(env, "run", "--help").exit()).as("the strict mode does check")
        .isNotZero();
  }

  @Test
  void refusesAnFsmHeapThatIsNoHeapSize() throws Exception {
    FsmJar.Result bad = launcher(Map.of("FSM_HEAP", "lots"), "--version");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).isEqualTo("fsm: FSM_HEAP=lots is not a heap size; give a number with"
        + " k, m or g, e.g. FSM_HEAP=1g\n");
    FsmJar.Result small = launcher(Map.of("FSM_HEAP", "4m"), "--version");
    assertThat(small.exit()).isEqualTo(2);
    assertThat(small.err()).isEqualTo("fsm: FSM_HEAP=4m is too small: fsm needs at least 32m\n");
  }

  @Test
  void aFullHeapEndsTheCommandWithOneLineSayingHowToRaiseIt() throws IOException {
    Files.writeString(work.resolve("many.jsonl"), "{}\n".repeat(40_000));
    Files.createDirectories(work.resolve("machines"));
    Files.writeString(work.resolve("machines/one.yaml"),
        "machine: one\nstates:\n  a: {run: builtin:noop, on: {ok: b}}\n  b: {final: completed}\n");
    FsmJar.Result started = FsmJar.run(work, "start", "one", "--from", "many.jsonl");
    assertThat(started.exit()).as(started.err()).isZero();
    Map<String, String> small = Map.of("JDK_JAVA_OPTIONS", "-Xmx12m");

    // A table keeps its rows until the end, to size its columns.
    FsmJar.Result table = FsmJar.run(work, small, "ls", "--limit", "40000");
    assertThat(table.exit()).isEqualTo(1);
    assertThat(table.err()).contains("fsm: out of memory: the heap limit is ")
        .contains(" MiB; raise it with FSM_HEAP=512m (bin/fsm) or java -Xmx... -jar fsm.jar")
        .doesNotContain("\tat ");
    // Ids and JSON are printed as they are read, a page at a time.
    FsmJar.Result json = FsmJar.run(work, small, "ls", "--limit", "40000", "--output", "json");
    assertThat(json.exit()).as(json.err()).isZero();
    assertThat(json.out().lines().filter(l -> l.startsWith("  \"id\" : ")).count())
        .isEqualTo(40_000);
  }

  @Test
  void saysHowToBuildWhenTheJarIsMissing() throws Exception {
    FsmJar.Result r = launcher(Map.of("FSM_JAR", work.resolve("none.jar").toString()), "--version");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("none.jar not found").contains("mvn -q -B package");
  }

  @Test
  void versionSaysWhichJavaTheLauncherChoseAndWhy() throws Exception {
    String java = JarCommand.java();
    FsmJar.Result chosen = launcher(Map.of("FSM_JAVA", java, "FSM_NO_CACHE", "1"), "version");
    assertThat(chosen.exit()).isZero();
    assertThat(chosen.outLines().get(1)).startsWith("Java " + System.getProperty("java.version"));
    assertThat(chosen.outLines().get(2)).isEqualTo("  chosen by bin/fsm: FSM_JAVA is set");
    FsmJar.Result own = launcher(Map.of("FSM_NO_CACHE", "1"), "version", "--output", "json");
    assertThat(own.exit()).isZero();
    assertThat(own.out()).containsPattern("\"chosen\" : \"(newest JDK 25\\+ found(, in"
        + " JAVA_HOME| in /usr/lib/jvm)|JAVA_HOME is set \\(no JDK 25\\+ found\\)|the java on"
        + " PATH .*)\"");
  }

  /** The feature version of the JDK the launcher picks, from {@code fsm version}. */
  private int launcherJdk() throws Exception {
    FsmJar.Result r = launcher(Map.of("FSM_NO_CACHE", "1"), "version");
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^Java (\\d+)")
        .matcher(r.out());
    assertThat(m.find()).as(r.out()).isTrue();
    return Integer.parseInt(m.group(1));
  }

  private Path awaitCacheFile(java.util.function.Predicate<Path> wanted) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      Path dir = cache.resolve("fsm");
      if (Files.isDirectory(dir)) {
        try (Stream<Path> files = Files.list(dir)) {
          List<Path> done = files.filter(p -> p.toString().matches(".*\\.(aot|jsa)$"))
              .filter(wanted).toList();
          if (!done.isEmpty()) {
            return done.get(0);
          }
        }
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    throw new AssertionError("no start-up cache appeared in " + cache + " within 90 s");
  }

  private FsmJar.Result launcher(Map<String, String> env, String... args) throws IOException,
      InterruptedException {
    List<String> command = new java.util.ArrayList<>();
    command.add(FsmJar.repo().resolve("bin/fsm").toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile());
    pb.environment().remove("NO_COLOR");
    pb.environment().put("XDG_CACHE_HOME", cache.toString());
    pb.environment().put("FSM_JAR", FsmJar.jar().toString());
    pb.environment().putAll(env);
    Path out = Files.createTempFile(work, "out", ".txt");
    Path err = Files.createTempFile(work, "err", ".txt");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    FsmJar.Result r = new FsmJar.Result(p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    Files.delete(out);
    Files.delete(err);
    return r;
  }
}
