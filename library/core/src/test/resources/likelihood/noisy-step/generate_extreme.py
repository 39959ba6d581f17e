#!/usr/bin/env python3
"""Reference table extreme.csv for the noisy-step likelihood at extreme cavities (reliability review).

Run from this directory:  nice -n 19 python3 generate_extreme.py      (writes extreme.csv; mpmath 1.3.0)

Same method as generate.py (imported from it: quad_moments, mp.dps = 60, direct mpmath.quad of the power-tilted
density N(f|m,v) p(y|f)^u over [m - 20s, m + 20s] split at f = 0, m, m +- 2s, m +- 8s; NOT the closed forms, which
are compared with the quadrature and the largest discrepancy printed), 30 significant digits written, on points
far outside generate.py's ranges: random.Random(20261126); eps = 10^U[-6, log10 0.49] (and the ends 1e-6, 0.49);
y = +-1; m = +-10^U[-4, 4] (one row in 10: m = 0; one in 10: |m| = 1e4 exactly); v = 10^U[-8, 6] (one row in 10:
v = 1e-8, one in 10: v = 1e6); u = 1 (one row in three) or 10^U[-3, 0] (u in (0, 1], Power EP, REP eq. 41).
"""
import random
import sys

import mpmath as mp

import generate as g

mp.mp.dps = 60
SEED = 20261126
N = 240


def main():
    rng = random.Random(SEED)
    rows = []
    worst = mp.mpf(0)
    for k in range(N):
        e = rng.choice(["1e-6", "0.49"]) if k % 10 == 0 else "%.6g" % 10 ** rng.uniform(-6, mp.log10(0.49))
        y = rng.choice([-1, 1])
        r = rng.random()
        mag = 1e4 if r < 0.1 else 10 ** rng.uniform(-4, 4)
        m = 0.0 if r > 0.9 else float("%.6g" % (rng.choice([-1, 1]) * mag))
        r = rng.random()
        v = 1e-8 if r < 0.1 else (1e6 if r > 0.9 else float("%.6g" % 10 ** rng.uniform(-8, 6)))
        u = "1" if k % 3 == 0 else "%.6g" % 10 ** rng.uniform(-3, 0)
        eps, mm, vv, uu = mp.mpf(e), mp.mpf(m), mp.mpf(v), mp.mpf(u)
        q = g.quad_moments(eps, y, mm, vv, uu)
        c = g.closed_moments(eps, y, mm, vv, uu)
        for a, b in zip(q, c):
            worst = max(worst, abs(a - b) / max(1, abs(a)))
        rows.append((e, y, m, v, u) + q)
    print("max |quadrature - closed form| / max(1, |value|):", mp.nstr(worst, 3), file=sys.stderr)
    with open("extreme.csv", "w") as fh:
        for line in __doc__.strip().splitlines():
            fh.write("# " + line + "\n")
        fh.write("# max |quadrature - closed form| / max(1, |value|) over the table: %s\n" % mp.nstr(worst, 3))
        fh.write("eps,y,m,v,u,log_z,mean,variance\n")
        for (e, y, m, v, u, lz, mean, var) in rows:
            fh.write("%s,%d,%r,%r,%s,%s,%s,%s\n" % (e, y, m, v, u, g.fmt(lz), g.fmt(mean), g.fmt(var)))


if __name__ == "__main__":
    main()
