package dev.fsm.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Compiles a {@code java:} action at test time against the packaged jar, as a user would. */
final class PluginJar {

  private PluginJar() {}

  /** Compiles {@code source}, the class {@code className}, into the jar {@code jar}. */
  static void build(Path jar, String className, String source) throws IOException {
    Path work = Files.createTempDirectory(jar.getParent().getParent(), "plugin-src");
    Path file = work.resolve("src/" + className.replace('.', '/') + ".java");
    Files.createDirectories(file.getParent());
    Files.writeString(file, source);
    Path classes = Files.createDirectories(work.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter messages = new StringWriter();
    boolean compiled = javac.getTask(messages, null, null,
        List.of("-classpath", FsmJar.jar().toString(), "-d", classes.toString()), null,
        javac.getStandardFileManager(null, null, null).getJavaFileObjects(file.toFile())).call();
    if (!compiled) {
      throw new AssertionError("the plugin did not compile: " + messages);
    }
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream entries = new JarOutputStream(out);
        Stream<Path> all = Files.walk(classes)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        entries.putNextEntry(new JarEntry(classes.relativize(p).toString().replace('\\', '/')));
        Files.copy(p, entries);
        entries.closeEntry();
      }
    }
  }
}
