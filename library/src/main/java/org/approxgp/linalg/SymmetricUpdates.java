package org.approxgp.linalg;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;

/**
 * A symmetric n × n matrix, kept as its upper triangle (diagonal included), under repeated weighted
 * symmetric rank-k updates A ← A − Σₗ wₗ uₗ uₗᵀ (BLAS dsyrk; Golub &amp; Van Loan §1.1) with reads of single
 * entries and whole columns between them: the covariance a sequential sweep of rank-one updates carries
 * (Rasmussen &amp; Williams 2006, Alg. 3.5, eq. 3.70). Confined to one thread.
 *
 * <p>Every native call copies each Java array it is given in and out (JavaCPP's JNI arrays): for n in the
 * hundreds that O(n²) copy costs more than a rank-32 update's arithmetic. On the native backend the matrix
 * therefore lives off the Java heap, in a direct buffer BLAS reads and writes in place; on the pure-Java
 * backend (and below the native crossover) it is a Java array updated by {@link
 * DenseBackend#symmetricUpdateUpper}, with the same bits as {@link Matrix#symmetricUpdateUpper}.
 */
public final class SymmetricUpdates {
  private final int n;
  private final DenseBackend backend;
  private final double[] heap;
  private final DoubleBuffer direct;
  private DoubleBuffer pos;
  private DoubleBuffer neg;

  private SymmetricUpdates(int n, DenseBackend backend, double[] heap, DoubleBuffer direct) {
    this.n = n;
    this.backend = backend;
    this.heap = heap;
    this.direct = direct;
  }

  /** A copy of the upper triangle of the square matrix {@code m} (its strict lower triangle is not read). */
  public static SymmetricUpdates of(Matrix m) {
    if (m.rows() != m.cols()) {
      throw new IllegalArgumentException("need a square matrix, got " + m.rows() + "x" + m.cols());
    }
    int n = m.rows();
    DenseBackend b = Linalg.current();
    if (b instanceof NativeBackend nb && n >= nb.crossover()) {
      DoubleBuffer d =
          ByteBuffer.allocateDirect(8 * n * n).order(ByteOrder.nativeOrder()).asDoubleBuffer();
      double[] src = m.data();
      for (int r = 0; r < n; r++) {
        d.put(r * n + r, src, r * n + r, n - r);
      }
      return new SymmetricUpdates(n, nb, null, d);
    }
    return new SymmetricUpdates(n, b, m.data().clone(), null);
  }

  public int size() {
    return n;
  }

  /** A[i, i]. */
  public double diagonal(int i) {
    int o = i * n + i;
    return heap != null ? heap[o] : direct.get(o);
  }

  /** Column i into {@code dst[off .. off + n)}: A[j, i] for j ≤ i and A[i, j] for j &gt; i (the upper triangle). */
  public void column(int i, double[] dst, int off) {
    if (heap != null) {
      for (int j = 0; j < i; j++) {
        dst[off + j] = heap[j * n + i];
      }
      System.arraycopy(heap, i * n + i, dst, off + i, n - i);
      return;
    }
    for (int j = 0; j < i; j++) {
      dst[off + j] = direct.get(j * n + i);
    }
    direct.get(i * n + i, dst, off + i, n - i);
  }

  /**
   * A ← A − Σₗ wₗ uₗ uₗᵀ over the first k rows uₗ of {@code u} (stored k × n), weights of either sign, on the
   * upper triangle.
   */
  public void update(int k, double[] u, double[] w) {
    if (k < 0 || u.length < (long) k * n || w.length < k) {
      throw new IllegalArgumentException("need k = " + k + " >= 0 rows of length " + n
          + " and k weights, got " + u.length + " values and " + w.length + " weights");
    }
    if (heap != null) {
      backend.symmetricUpdateUpper(n, 0, k, u, w, heap);
      return;
    }
    if (pos == null || pos.capacity() < k * n) {
      pos = ByteBuffer.allocateDirect(8 * k * n).order(ByteOrder.nativeOrder()).asDoubleBuffer();
      neg = ByteBuffer.allocateDirect(8 * k * n).order(ByteOrder.nativeOrder()).asDoubleBuffer();
    }
    ((NativeBackend) backend).symmetricUpdateUpper(n, k, u, w, direct, pos, neg);
  }
}
