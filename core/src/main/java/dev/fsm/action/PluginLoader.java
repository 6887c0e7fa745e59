package dev.fsm.action;

import dev.fsm.action.api.FsmAction;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds {@code java:} action classes in the jars of the plugin folder: one class loader over all
 * of them, made at the first use and kept, whose parent is fsm's own so plugins share the API
 * types. Thread-safe.
 */
final class PluginLoader implements AutoCloseable {

  private final Path folder;
  private URLClassLoader loader;
  private List<Path> jars = List.of();

  /** @param folder the plugin folder, or null when none was given */
  PluginLoader(Path folder) {
    this.folder = folder;
  }

  /** A new instance of the action class, or why there is none. */
  FsmAction instantiate(String className) throws ActionException {
    String name = "java:" + className;
    ClassLoader classes = loader(name);
    Class<?> type;
    try {
      type = Class.forName(className, true, classes);
    } catch (ClassNotFoundException e) {
      throw new ActionException(name + ": class not found in the plugin jars " + jarNames()
          + " of " + folder + "; check the class name or add the jar that holds it");
    } catch (LinkageError e) {
      throw new ActionException(name + " cannot be loaded: " + e);
    }
    if (!FsmAction.class.isAssignableFrom(type)) {
      throw new ActionException(name + " does not implement " + FsmAction.class.getName());
    }
    if (Modifier.isAbstract(type.getModifiers()) || !Modifier.isPublic(type.getModifiers())) {
      throw new ActionException(name + " must be a public, non-abstract class");
    }
    try {
      Constructor<?> constructor = type.getConstructor();
      return (FsmAction) constructor.newInstance();
    } catch (NoSuchMethodException e) {
      throw new ActionException(name + " needs a public constructor without arguments");
    } catch (InvocationTargetException e) {
      throw new ActionException(name + ": its constructor failed: " + e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new ActionException(name + " cannot be instantiated: " + e);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (loader != null) {
      loader.close();
    }
  }

  private synchronized ClassLoader loader(String name) throws ActionException {
    if (loader != null) {
      return loader;
    }
    if (folder == null) {
      throw new ActionException(name + " needs a plugin folder; pass --plugins DIR, a folder"
          + " with the jar that holds the class");
    }
    if (!Files.isDirectory(folder)) {
      throw new ActionException(name + ": plugin folder " + folder + " does not exist; pass"
          + " --plugins DIR, a folder with the jar that holds the class");
    }
    List<Path> found;
    try (Stream<Path> files = Files.list(folder)) {
      found = files.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
    } catch (IOException e) {
      throw new ActionException(name + ": cannot list plugin folder " + folder + ": " + e);
    }
    if (found.isEmpty()) {
      throw new ActionException(name + ": plugin folder " + folder + " holds no jars; put the"
          + " jar that holds the class there");
    }
    URL[] urls = new URL[found.size()];
    for (int i = 0; i < urls.length; i++) {
      try {
        urls[i] = found.get(i).toUri().toURL();
      } catch (MalformedURLException e) {
        throw new ActionException(name + ": bad plugin jar path " + found.get(i));
      }
    }
    jars = found;
    loader = new URLClassLoader("fsm-plugins", urls, PluginLoader.class.getClassLoader());
    return loader;
  }

  private synchronized List<String> jarNames() {
    return jars.stream().map(p -> p.getFileName().toString()).toList();
  }
}
