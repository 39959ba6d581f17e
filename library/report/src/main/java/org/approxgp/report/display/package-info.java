/**
 * Display hooks for Java Jupyter kernels, kept out of the core packages. {@link
 * org.approxgp.report.display.MimeBundles} maps an object (Tablesaw {@code Table}, XChart chart) to
 * a kernel-independent MIME bundle ({@code text/html}, {@code image/png}, {@code text/plain});
 * the per-kernel adapters (rapaio-jupyter-kernel's {@code DisplayProvider} SPI, JJava's {@code
 * Extension} SPI) only translate that bundle into the kernel's own display type.
 */
package org.approxgp.report.display;
