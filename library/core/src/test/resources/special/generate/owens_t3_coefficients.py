#!/usr/bin/env python3
"""Coefficients c_k of OwensT.T3: p(u) = sum_{k=0}^{20} c_k u^k, the degree-20 Chebyshev interpolant of
1/(1+u) on u in [0, 1] (u = x^2), converted to the monomial basis at 80 digits and rounded to doubles.
This is the economisation that Patefield & Tandy (2000, section 2, method T3) apply to the T2 series
1/(1+x^2) = sum (-1)^k x^(2k); max |p(u) - 1/(1+u)| is printed (about 4e-17 before rounding)."""
from mpmath import mp
mp.dps = 80
N = 20
nodes = [(1 + mp.cos((2 * j + 1) * mp.pi / (2 * (N + 1)))) / 2 for j in range(N + 1)]
V = mp.matrix([[u ** k for k in range(N + 1)] for u in nodes])
c = mp.lu_solve(V, mp.matrix([1 / (1 + u) for u in nodes]))
err = max(abs(sum(c[k] * (mp.mpf(i) / 2000) ** k for k in range(N + 1)) - 1 / (1 + mp.mpf(i) / 2000))
          for i in range(2001))
print("max interpolation error", mp.nstr(err, 5))
for k in range(N + 1):
    print(f"        {float(c[k])!r},")
