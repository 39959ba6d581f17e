/**
 * Baselines a GP classifier is measured against: {@link org.approxgp.baseline.LogisticRegression}, L2-penalised
 * logistic regression fitted by Newton's method (Hastie, Tibshirani &amp; Friedman, <i>The Elements of Statistical
 * Learning</i>, 2nd ed., §4.4.1 (IRLS) and §4.4.4 (L2 penalty)). Uses only {@code linalg}.
 */
package org.approxgp.baseline;
