package org.approxgp.experiment;

/**
 * A run with {@link Runner#withVerify} recomputed stored trials and at least one differs from its stored row: the
 * store is stale for today's code ({@link Verification#report} says which trials and columns).
 */
public final class VerificationFailedException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final transient Verification verification;

  public VerificationFailedException(Verification verification) {
    super(verification.experiment() + ": stored rows differ from today's code: "
        + verification.report());
    this.verification = verification;
  }

  /** The verdict, with the differing trials. */
  public Verification verification() {
    return verification;
  }
}
