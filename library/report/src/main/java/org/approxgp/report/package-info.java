/**
 * Report pieces for notebooks and HTML exports: Tablesaw tables as HTML with text left-aligned and numbers aligned
 * on the decimal point ({@link org.approxgp.report.Tables}), XChart charts that require a title and axis titles
 * with units, name coinciding curves, mark missing bars and paper values ({@link org.approxgp.report.Charts}), and
 * charts as PNG bytes, data URIs and saved files ({@link org.approxgp.report.Figures}). Kernel display hooks live in
 * {@code org.approxgp.report.display}.
 */
package org.approxgp.report;
