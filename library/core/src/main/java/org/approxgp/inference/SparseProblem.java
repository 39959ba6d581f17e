package org.approxgp.inference;

/**
 * A latent GP {@link Problem} with M inducing inputs Z (M ≪ n is the point, M = n with Z = X the limit test): the
 * inducing variables u = f(Z) carry the approximate posterior q(f) = p(f | u) q(u) of {@link SparseSiteLoop}
 * (Bui, Yan &amp; Turner, JMLR 18(104), 2017, §3). Z is copied in and out.
 *
 * @param problem kernel, training inputs and targets, likelihood, constant prior mean m₀
 * @param z inducing inputs, M × d (the training inputs' d)
 */
public record SparseProblem(Problem problem, double[][] z) {

  public SparseProblem {
    if (problem == null || z == null) {
      throw new IllegalArgumentException("problem and inducing inputs must not be null");
    }
    if (z.length == 0) {
      throw new IllegalArgumentException("no inducing inputs");
    }
    int d = problem.x()[0].length;
    double[][] copy = new double[z.length][];
    for (int a = 0; a < z.length; a++) {
      if (z[a] == null || z[a].length != d) {
        throw new IllegalArgumentException("inducing input " + a + " has "
            + (z[a] == null ? "no" : Integer.toString(z[a].length))
            + " columns, the training inputs "
            + d);
      }
      for (double v : z[a]) {
        if (!Double.isFinite(v)) {
          throw new IllegalArgumentException("inducing input " + a + " is not finite");
        }
      }
      copy[a] = z[a].clone();
    }
    z = copy;
  }

  /** The inducing inputs (a copy). */
  @Override
  public double[][] z() {
    double[][] copy = new double[z.length][];
    for (int a = 0; a < z.length; a++) {
      copy[a] = z[a].clone();
    }
    return copy;
  }

  /** M, the number of inducing inputs. */
  public int inducing() {
    return z.length;
  }

  /** n, the number of training points (sites). */
  public int size() {
    return problem.size();
  }

  /** The same inducing inputs on a problem with another kernel (new hyperparameters). */
  public SparseProblem withProblem(Problem p) {
    return new SparseProblem(p, z);
  }
}
