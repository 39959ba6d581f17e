"""Peer for bin/bench classification: scikit-learn's GaussianProcessClassifier (Laplace, logistic link)
at fixed hyperparameters on the data the Java bench wrote.

usage: python3 sklearn_gpc.py DATA.csv SIGNAL_VARIANCE LENGTHSCALE REPS
DATA.csv: no header, features then a ±1 label per row. Prints one line of key=value pairs:
log marginal likelihood at the mode, best fit time (posterior mode at fixed theta), best time of the
log marginal likelihood with its gradient.
"""
import sys
import time

import numpy as np
from sklearn.gaussian_process import GaussianProcessClassifier
from sklearn.gaussian_process.kernels import RBF, ConstantKernel


def main():
    data = np.loadtxt(sys.argv[1], delimiter=",")
    sf2, ell, reps = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    x, y = data[:, :-1], data[:, -1]
    kernel = ConstantKernel(sf2) * RBF(np.full(x.shape[1], ell))
    best_fit = best_grad = float("inf")
    gpc = None
    for _ in range(reps):
        t0 = time.perf_counter()
        gpc = GaussianProcessClassifier(kernel=kernel, optimizer=None).fit(x, y)
        best_fit = min(best_fit, time.perf_counter() - t0)
    est = gpc.base_estimator_
    theta = est.kernel_.theta
    for _ in range(reps):
        t0 = time.perf_counter()
        lml, grad = est.log_marginal_likelihood(theta, eval_gradient=True)
        best_grad = min(best_grad, time.perf_counter() - t0)
    print(f"lml={float(gpc.log_marginal_likelihood_value_)!r} lml_grad={float(lml)!r} fit_seconds={best_fit!r} "
          f"lml_grad_seconds={best_grad!r} sklearn={__import__('sklearn').__version__}")


if __name__ == "__main__":
    main()
