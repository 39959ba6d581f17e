/**
 * Paper reproductions, one sub-package per paper, each built on {@link org.approxgp.experiment}:
 * {@code qp} (Zhang et al., NeurIPS 2020, Quantile Propagation), {@code rep} (Relaxed EP) and {@code svbssgp}
 * (Hoang, Hoang &amp; Low, AAAI 2017); {@link org.approxgp.papers.Verdicts} holds the claims-as-code shared by all
 * three, and {@link org.approxgp.papers.PaperExperiments} registers their experiments by name.
 */
package org.approxgp.papers;
