/**
 * Report pieces for notebooks and HTML exports: Tablesaw tables as HTML ({@link
 * org.approxgp.report.Tables}), XChart charts as PNG bytes, data URIs and saved files ({@link
 * org.approxgp.report.Figures}). Kernel display hooks live in {@code org.approxgp.report.display}.
 */
package org.approxgp.report;
