/** The {@code approxgp} command line (picocli): {@code fit}, {@code tilted}, {@code qp-table}. */
package org.approxgp.cli;
