/**
 * Data sets and data handling: {@link org.approxgp.data.Dataset} (feature matrix, target, column
 * names, provenance), the registry of committed data sets and validated CSV loading
 * ({@link org.approxgp.data.Datasets}), seeded k-fold and random splits
 * ({@link org.approxgp.data.Splits}), standardisation fitted on the training part only
 * ({@link org.approxgp.data.Standardizer}) and the coal-mining yearly counts
 * ({@link org.approxgp.data.Coal}).
 *
 * <p>The committed CSV files, their sources, licences, checksums and every known difference from
 * the papers are described in {@code datasets/README.md} (also shipped in the JAR as
 * {@code org/approxgp/datasets/README.md}).
 */
package org.approxgp.data;
