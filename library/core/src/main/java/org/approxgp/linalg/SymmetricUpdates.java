package org.approxgp.linalg;

import java.nio.DoubleBuffer;

/**
 * A symmetric n × n matrix, kept as its upper triangle (diagonal included), under repeated weighted
 * symmetric rank-k updates A ← A − Σₗ wₗ uₗ uₗᵀ (BLAS dsyrk; Golub &amp; Van Loan §1.1) with reads of single
 * entries and whole columns between them: the covariance a sequential sweep of rank-one updates carries
 * (Rasmussen &amp; Williams 2006, Alg. 3.5, eq. 3.70). Confined to one thread; {@link #close} it when done.
 *
 * <p>Every native call copies each Java array it is given in and out (JavaCPP's JNI arrays): for n in the
 * hundreds that O(n²) copy costs more than a rank-32 update's arithmetic. On the native backend the matrix
 * therefore lives in native memory, which BLAS reads and writes in place and {@link #close} frees at once
 * (not at some later garbage collection); on the pure-Java backend (and below the native crossover) it is a
 * Java array updated by {@link DenseBackend#symmetricUpdateUpper}, with the same bits as {@link
 * Matrix#symmetricUpdateUpper}.
 */
public final class SymmetricUpdates implements AutoCloseable {
  private final int n;
  private final DenseBackend backend;
  private final double[] heap;
  private NativeBackend.NativeArray offHeap;
  private DoubleBuffer direct;
  private NativeBackend.NativeArray pos;
  private NativeBackend.NativeArray neg;

  private SymmetricUpdates(int n, DenseBackend backend, double[] heap) {
    this.n = n;
    this.backend = backend;
    this.heap = heap;
  }

  /** A copy of the upper triangle of the square matrix {@code m} (its strict lower triangle is not read). */
  public static SymmetricUpdates of(Matrix m) {
    if (m.rows() != m.cols()) {
      throw new IllegalArgumentException("need a square matrix, got " + m.rows() + "x" + m.cols());
    }
    int n = m.rows();
    DenseBackend b = Linalg.current();
    if (b instanceof NativeBackend nb && n >= nb.crossover()) {
      SymmetricUpdates s = new SymmetricUpdates(n, nb, null);
      s.offHeap = new NativeBackend.NativeArray((long) n * n);
      s.direct = s.offHeap.buffer();
      double[] src = m.data();
      for (int r = 0; r < n; r++) {
        s.direct.put(r * n + r, src, r * n + r, n - r);
      }
      return s;
    }
    return new SymmetricUpdates(n, b, m.data().clone());
  }

  public int size() {
    return n;
  }

  /** A[i, i]. */
  public double diagonal(int i) {
    int o = i * n + i;
    return heap != null ? heap[o] : open().get(o);
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
    DoubleBuffer d = open();
    for (int j = 0; j < i; j++) {
      dst[off + j] = d.get(j * n + i);
    }
    d.get(i * n + i, dst, off + i, n - i);
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
    open();
    if (pos == null || pos.buffer().capacity() < (long) k * n) {
      closeScratch();
      pos = new NativeBackend.NativeArray((long) k * n);
      neg = new NativeBackend.NativeArray((long) k * n);
    }
    ((NativeBackend) backend).symmetricUpdateUpper(n, k, u, w, offHeap, pos, neg);
  }

  /** Frees the native memory (if any); the matrix cannot be used afterwards. Idempotent. */
  @Override
  public void close() {
    closeScratch();
    if (offHeap != null) {
      direct = null;
      offHeap.close();
      offHeap = null;
    }
  }

  private void closeScratch() {
    if (pos != null) {
      pos.close();
      neg.close();
      pos = null;
      neg = null;
    }
  }

  private DoubleBuffer open() {
    if (direct == null) {
      throw new IllegalStateException("the matrix was closed");
    }
    return direct;
  }
}
