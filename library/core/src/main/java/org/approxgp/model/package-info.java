/**
 * Models: a latent GP, an inference method, and hyperparameter learning by L-BFGS on the log
 * evidence (the role GPML's {@code gp.m} and {@code minimize.m} play). The inference method is a
 * strategy ({@link org.approxgp.model.InferenceMethod}); sites are warm-started explicitly from one
 * objective evaluation to the next.
 */
package org.approxgp.model;
