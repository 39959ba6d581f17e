package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every concrete {@link Likelihood} of the package has a contract test (a subclass of {@link LikelihoodContract}
 * among the test classes) that covers it: a guard, as in GPflow.
 */
class LikelihoodCoverageTest {

  @Test
  void everyLikelihoodHasAContractTest() throws Exception {
    Set<Class<?>> covered = new HashSet<>();
    for (Class<?> k : classesIn(LikelihoodCoverageTest.class)) {
      if (LikelihoodContract.class.isAssignableFrom(k) && !Modifier.isAbstract(k.getModifiers())) {
        var ctor = k.getDeclaredConstructor();
        ctor.setAccessible(true);
        for (LikelihoodContract.Case c : ((LikelihoodContract) ctor.newInstance()).cases()) {
          covered.add(c.lik().getClass());
        }
      }
    }
    List<String> missing = new ArrayList<>();
    for (Class<?> k : classesIn(Likelihood.class)) {
      if (Likelihood.class.isAssignableFrom(k)
          && !k.isInterface()
          && !Modifier.isAbstract(k.getModifiers())
          && !covered.contains(k)) {
        missing.add(k.getSimpleName());
      }
    }
    assertTrue(covered.size() >= 4, "found contract tests for only " + covered);
    assertTrue(
        missing.isEmpty(),
        "likelihoods without a contract test (extend LikelihoodContract): " + missing);
  }

  /** The top-level classes of this package in the class-path root that holds {@code anchor}. */
  private static List<Class<?>> classesIn(Class<?> anchor) throws Exception {
    Path dir = Path.of(
            anchor.getProtectionDomain().getCodeSource().getLocation().toURI())
        .resolve("org/approxgp/likelihood");
    List<Class<?>> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files
          .filter(f ->
              f.toString().endsWith(".class") && !f.getFileName().toString().contains("$"))
          .sorted()
          .toList()) {
        out.add(Class.forName(
            "org.approxgp.likelihood." + p.getFileName().toString().replace(".class", "")));
      }
    }
    return out;
  }
}
