package org.approxgp.bench;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * A bench's own method as a baseline build runs it: the bench class loaded in a class loader that reads the
 * library's classes from {@code classes} (a baseline build's {@code target/classes}) first, then the bench and the
 * dependencies from the current class path without this build's {@code target/classes}. Benches time the returned
 * method against their own, alternating in one JVM.
 */
final class BaselineClasses {
  private BaselineClasses() {}

  /** {@code bench}'s public static method {@code name(parameterTypes)} as loaded over {@code classes}. */
  static Method method(String classes, Class<?> bench, String name, Class<?>... parameterTypes)
      throws Exception {
    List<URL> urls = new ArrayList<>();
    urls.add(new File(classes).toURI().toURL());
    for (String p : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!p.endsWith("target/classes") && !p.endsWith("target/classes/")) {
        urls.add(new File(p).toURI().toURL());
      }
    }
    ClassLoader loader =
        new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    return loader.loadClass(bench.getName()).getMethod(name, parameterTypes);
  }
}
