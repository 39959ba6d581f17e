package org.approxgp.experiment;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.approxgp.linalg.Linalg;

/**
 * Where a row was computed: the columns the {@link Runner} adds to every stored row beside the trial's own, so that
 * a reader of a store (and {@link Runner#verify}) can say what machine and code a number came from. None of them is
 * part of a store's identity ({@link ConfigHash}) nor compared by verification ({@link VerifyRule#isCompared}):
 * rows computed on another kernel agree with these within rounding, which is what verification checks.
 *
 * <ul>
 *   <li>{@value ResultRow#BACKEND}: the dense linear-algebra backend, "native" (OpenBLAS) or "ejml";
 *   <li>{@value ResultRow#CODE_VERSION}: the commit the library was built from ({@link CodeVersion});
 *   <li>{@value #BLAS}: the BLAS library, its version and the core type its kernels were chosen for
 *       ({@link Linalg#blasDescription});
 *   <li>{@value #BLAS_THREADS}: OpenBLAS's thread count when the row was computed (the runner holds it at 1);
 *   <li>{@value #JDK}: the Java runtime's version and vendor.
 * </ul>
 */
public final class RunEnvironment {

  /** The BLAS column. */
  public static final String BLAS = "blas";
  /** The BLAS threads column. */
  public static final String BLAS_THREADS = "blas_threads";
  /** The JDK column. */
  public static final String JDK = "jdk";

  /** Every environment column, none of which verification compares. */
  public static final List<String> COLUMNS =
      List.of(ResultRow.BACKEND, ResultRow.CODE_VERSION, BLAS, BLAS_THREADS, JDK);

  private RunEnvironment() {}

  /** This process's values of the environment columns (the backend is the process default's). */
  public static Map<String, Object> current() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(ResultRow.BACKEND, Linalg.defaultBackendName());
    m.put(ResultRow.CODE_VERSION, CodeVersion.current());
    m.put(BLAS, Linalg.blasDescription());
    m.put(BLAS_THREADS, (long) Linalg.nativeThreads());
    m.put(
        JDK,
        System.getProperty("java.runtime.version", System.getProperty("java.version")) + " ("
            + System.getProperty("java.vendor", "unknown vendor") + ")");
    return m;
  }

  /**
   * The environment columns in which {@code stored} and {@code now} differ, each "name: stored X, now Y" (a column
   * a row predates reads "not recorded"), the code version left out (verification reports it per trial).
   */
  public static List<String> differences(Map<String, Object> stored, Map<String, Object> now) {
    java.util.ArrayList<String> out = new java.util.ArrayList<>();
    for (String c : COLUMNS) {
      if (c.equals(ResultRow.CODE_VERSION)) {
        continue;
      }
      Object a = stored.get(c);
      Object b = now.get(c);
      if (!Objects.equals(a, b)) {
        out.add(c + ": stored " + (a == null ? "not recorded" : a) + ", now "
            + (b == null ? "not recorded" : b));
      }
    }
    return out;
  }
}
