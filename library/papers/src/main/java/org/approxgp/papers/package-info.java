/**
 * Paper reproductions, one sub-package per paper, each built on {@link org.approxgp.experiment}:
 * {@code qp} (Zhang et al., NeurIPS 2020, Quantile Propagation); later {@code rep} and
 * {@code svbssgp}.
 */
package org.approxgp.papers;
