#!/usr/bin/env python3
"""Makes library/core/src/test/resources/baseline/logistic-sklearn.csv, the table LogisticRegressionTest reads.

A seeded synthetic binary problem (numpy default_rng(47): n = 300 rows, d = 3 correlated inputs, labels drawn
from a logistic model, so not separable) and scikit-learn's L2-penalised LogisticRegression fitted to it for
several penalties lambda = 1/C (solver newton-cholesky, tol 1e-12; the intercept is not penalised), plus the
unpenalised fit. The file holds the data rows and, in comment lines, each fit's coefficients.

Run: python3 library/cli/src/test/python/make_logistic_table.py > library/core/src/test/resources/baseline/logistic-sklearn.csv
"""
import sys

import numpy as np
import sklearn
from sklearn.linear_model import LogisticRegression

rng = np.random.default_rng(47)
n, d = 300, 3
a = rng.normal(size=(d, d))
x = rng.normal(size=(n, d)) @ a.T * 0.8 + np.array([0.5, -1.0, 2.0])
w_true = np.array([1.2, -0.7, 0.4])
p = 1 / (1 + np.exp(-(x @ w_true - 0.3)))
y = np.where(rng.uniform(size=n) < p, 1, -1)

out = sys.stdout
out.write("# made by library/cli/src/test/python/make_logistic_table.py with scikit-learn %s, numpy %s\n"
          % (sklearn.__version__, np.__version__))
out.write("# sklearn.linear_model.LogisticRegression(C=1/lambda, solver='newton-cholesky', tol=1e-12, max_iter=1000);"
          " lambda = 0: C=inf (no penalty)\n")
out.write("# one line per fit, after the word fit: lambda,intercept,w1,w2,w3,mean_log_loss\n")
for lam in [0.0, 0.01, 1.0, 30.0]:
    if lam == 0:
        m = LogisticRegression(C=np.inf, solver="newton-cholesky", tol=1e-12, max_iter=1000)
    else:
        m = LogisticRegression(C=1 / lam, solver="newton-cholesky", tol=1e-12, max_iter=1000)
    m.fit(x, y)
    t = x @ m.coef_[0] + m.intercept_[0]
    loss = np.mean(np.logaddexp(0, -y * t))
    out.write("# fit %r,%r,%s,%r\n" % (lam, float(m.intercept_[0]), ",".join(repr(float(v)) for v in m.coef_[0]),
                                        float(loss)))
out.write("x1,x2,x3,y\n")
for i in range(n):
    out.write("%r,%r,%r,%d\n" % (float(x[i, 0]), float(x[i, 1]), float(x[i, 2]), int(y[i])))
