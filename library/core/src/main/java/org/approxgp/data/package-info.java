/**
 * Data sets and data handling: {@link org.approxgp.data.Dataset} (feature matrix, target, column
 * names, provenance), the registry of committed data sets and validated CSV loading
 * ({@link org.approxgp.data.Datasets}), seeded k-fold and random splits
 * ({@link org.approxgp.data.Splits}), standardisation fitted on the training part only
 * ({@link org.approxgp.data.Standardizer}) and the coal-mining yearly counts
 * ({@link org.approxgp.data.Coal}).
 *
 * <p>Regression at scale (the sVBSSGP paper, Hoang, Hoang &amp; Low 2017, §5): row-major
 * {@link org.approxgp.data.RegressionData} with names ({@link org.approxgp.data.RegressionSet}); the paper's
 * data roles ({@link org.approxgp.data.RegressionDatasets}: flights-3m for AIRLINE, a 41,800-row sample of it
 * for AIMPEAK, one-hot diamonds for BLOG); flights-3m itself ({@link org.approxgp.data.Flights}, fetched and
 * converted on first use into a {@link org.approxgp.data.ColumnFile}); the paper's five 95 % / 5 % splits
 * with training-only standardisation ({@link org.approxgp.data.RegressionSplits}).
 *
 * <p>The committed CSV files, their sources, licences, checksums and every known difference from
 * the papers are described in {@code datasets/README.md} (also shipped in the JAR as
 * {@code org/approxgp/datasets/README.md}).
 */
package org.approxgp.data;
