package dev.fsm.action;

import dev.fsm.action.api.FsmAction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Compiles Java sources against fsm's plugin API into a jar, as a plugin author would. */
final class PluginJar {

  private PluginJar() {}

  /**
   * Compiles {@code sources} (class name to source text) into {@code jar}.
   *
   * @throws IllegalStateException when they do not compile
   */
  static void build(Map<String, String> sources, Path work, Path jar) throws IOException {
    Path src = Files.createDirectories(work.resolve("src"));
    Path classes = Files.createDirectories(work.resolve("classes"));
    List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", apiClasses(),
        "--release", "17"));
    for (Map.Entry<String, String> source : sources.entrySet()) {
      Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
      args.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac.run(null, null, null, args.toArray(String[]::new)) != 0) {
      throw new IllegalStateException("plugin sources do not compile");
    }
    Files.createDirectories(jar.getParent());
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes)) {
      files.filter(Files::isRegularFile).forEach(file -> add(out, classes, file));
    }
  }

  private static void add(JarOutputStream out, Path root, Path file) {
    try {
      out.putNextEntry(new JarEntry(root.relativize(file).toString().replace('\\', '/')));
      Files.copy(file, out);
      out.closeEntry();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String apiClasses() {
    try {
      return Path.of(FsmAction.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
