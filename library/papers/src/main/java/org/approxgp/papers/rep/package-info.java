/**
 * The experiments of Y. Qi and Y. Guo, <i>Message passing with relaxed moment matching</i> (arXiv
 * 1204.4166, 2012), on the {@link org.approxgp.experiment} machinery: {@link org.approxgp.papers.rep.RepFigure1}
 * (Figure 1: five 2-D points, linear kernel, EP / Power EP / Relaxed EP against the exact posterior of the
 * weights), {@link org.approxgp.papers.rep.RepSynthetic} (Figures 2–4: a synthetic 2-D problem with flipped
 * labels), {@link org.approxgp.papers.rep.RepUci} (Figures 5–6: Heart, Pima, Diabetes, Haberman, Spam) and
 * {@link org.approxgp.papers.rep.RepPaper} (the paper's claims; its figures carry no printed numbers). The
 * notebooks {@code rep-figure1}, {@code rep-synthetic} and {@code rep-uci} call these classes.
 */
package org.approxgp.papers.rep;
