/**
 * The {@code approxgp} command line (picocli): {@code fit} (latent-GP classification and count regression),
 * {@code compare} (every approximation against a sampled truth), {@code regress} (sparse GP regression),
 * {@code run} (a registered experiment, resumable, with {@code --verify}), {@code coal} (the QP paper's coal-mining
 * experiment), {@code tilted} (one tilted distribution's moments) and {@code qp-table} (QP's lookup tables). Each
 * command parses, calls the library, prints; shared flags are mixins ({@code MethodOptions}, {@code KernelOptions},
 * {@code StoreOptions}, {@code SparkAuth}).
 */
package org.approxgp.cli;
