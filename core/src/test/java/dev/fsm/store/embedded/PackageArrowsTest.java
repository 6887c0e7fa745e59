package dev.fsm.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The embedded store's packages point one way: the facade uses its sub-packages, no sub-package
 * names the facade, and no sub-packages reach each other around a loop. Read from the sources'
 * references to store classes (imports, qualified names), which name every arrow.
 */
class PackageArrowsTest {

  private static final String FACADE = "dev.fsm.store.embedded";
  private static final Path SOURCES = Path.of("src/main/java/dev/fsm/store/embedded");
  private static final Pattern REFERENCE =
      Pattern.compile("\\b(dev\\.fsm\\.store\\.embedded(?:\\.[a-z]\\w*)*)\\.[A-Z]");

  /** Each package of the store and the other store packages its files name. */
  private static final Map<String, Set<String>> USES = new TreeMap<>();

  @BeforeAll
  static void readSources() throws IOException {
    assertThat(SOURCES).as("run from the core module's folder").isDirectory();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String from = FACADE + SOURCES.relativize(file.getParent()).toString()
            .replace('/', '.').transform(sub -> sub.isEmpty() ? "" : "." + sub);
        Set<String> uses = USES.computeIfAbsent(from, p -> new TreeSet<>());
        Matcher m = REFERENCE.matcher(Files.readString(file));
        while (m.find()) {
          if (!m.group(1).equals(from)) {
            uses.add(m.group(1));
          }
        }
      }
    }
  }

  @Test
  void theFacadeUsesItsSubPackagesAndNoneUsesIt() {
    assertThat(USES.get(FACADE)).contains(FACADE + ".index", FACADE + ".recovery",
        FACADE + ".owner");
    USES.forEach((from, uses) -> assertThat(uses).as("packages %s names", from)
        .doesNotContain(FACADE));
  }

  @Test
  void noSubPackagesReachEachOtherAroundALoop() {
    for (String start : USES.keySet()) {
      assertThat(loopBack(start, start, new HashSet<>(), new ArrayList<>()))
          .as("a loop through %s", start).isEmpty();
    }
  }

  /** A path from {@code at} back to {@code start}, if there is one. */
  private static List<String> loopBack(String start, String at, Set<String> seen,
      List<String> path) {
    path.add(at);
    for (String next : USES.getOrDefault(at, Set.of())) {
      if (next.equals(start)) {
        path.add(next);
        return path;
      }
      if (seen.add(next) && !loopBack(start, next, seen, path).isEmpty()) {
        return path;
      }
    }
    path.remove(path.size() - 1);
    return List.of();
  }
}
