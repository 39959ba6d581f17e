#!/usr/bin/env python3
"""40-digit reference values for the probit likelihood p(y | f) = Phi(y f) at extreme Gaussian cavities N(f | m, v).

Run from this directory:  nice -n 19 python3 generate.py      (writes power-tilted.csv and tilted-expected-log.csv)

Quantities (y = +-1, u in (0, 1]):
  power-tilted.csv         log Z_u = log int N(f|m,v) Phi(y f)^u df, and the mean and variance of the normalised
                           integrand (Power EP, Minka 2004; the power-tilted distribution of Qi & Guo appendix C).
  tilted-expected-log.csv  E1 = E_{p^}[log Phi(y f)], p^(f) = N(f|m,v) Phi(y f) / Z_1 (the tilted distribution),
                           the first term of Relaxed EP's objective (Qi & Guo eq. 35-36); and
                           E0 = E_{N(f|m,v)}[log Phi(y f)] (the variational expectation).

Method (independent of the Java code's formulas: plain mpmath quadrature of the defining integrals at mp.dps = 60):
  ell(f) = -(f - m)^2 / (2 v) + u log Phi(y f)   (log Phi from mpmath.ncdf at 60 digits, no asymptotics),
  concave; its mode f* is found by Newton's method on ell'(f) (analytic, ell' = -(f-m)/v + u y phi/Phi) kept
  inside a bracket (bisection fallback) to 1e-45 of sqrt v, sigma = (-ell''(f*))^(-1/2).
  Every integral is mpmath.quad over t (f = f* + sigma t) of exp(ell(f) - ell(f*)) times 1, t or t^2, on the
  partition t = 0, +-1, +-2, +-4, ..., +-2^k where k is the first with ell(f* +- sigma 2^k) - ell(f*) < -200
  (dropped mass < e^-190 relative), refined by the points where f = 0, +-2^j (j = -3 .. 6) inside it (the probit
  changes on the scale 1 in f, which can be far narrower than sigma); each piece by Gauss-Legendre, and every
  integral's own error estimate must be below 1e-45 x max(1, |integral|) (g(0) = 1 with unit curvature, so the
  mass integral is of order 1; else the script stops). mpmath's tanh-sinh rule is a cross-check on every eighth
  row (printed when the two differ by more than 1e-38 relative).
  E1 = -exp(log I1 - log Z_1) (Z_1 = Phi(y m / sqrt(1 + v)), R&W eq. 3.82) and E0 = -exp(log I0) with I_u = int N(f|m,v) Phi(y f)^u (-log Phi(y f)) df, u = 1
  and u = 0, each done as above with ell2 = ell + log(-log Phi(y f)) (N Phi^u (-log Phi) is log-concave), so the
  tiny E ~ -E[Phi(-y f)] of a well-classified point keeps its digits.
  Values written with 40 significant digits.

Points: random.Random(SEED = 20261126; the E table SEED + 1); y = +-1; |m| = 10^U[-3, 6] with a random sign (one row in 8 has m = 0), v = 10^U[-8, 6],
u in {0.1, 0.5, 0.8, 1} or U(0, 1]; plus fixed rows at the reported failures (m = +-250, v = 1, u = 0.5, both y).
The E table adds fixed rows at y = 1, m = 0 (v = 1, 25, 100, 1e3, ..., 1e6) and m = 3 (v = 25, 1e4, 1e6, both y). Only rows whose log Z > -1e300,
and whose E0, E1 lie in (-1e300, -1e-300), are kept.
"""
import random
import sys

import mpmath as mp

mp.mp.dps = 60
SEED = 20261126
DROP = 200


def logphi(z):
    # log Phi(z) at 60 digits; log1p(-Phi(-z)) on the right so that log Phi(z) ~ -Phi(-z) keeps its digits
    return mp.log1p(-mp.ncdf(-z)) if z > 0 else mp.log(mp.ncdf(z))


def ratio(z):
    """phi(z) / Phi(z)."""
    return mp.npdf(z) / mp.ncdf(z)


def make_ell(y, m, v, u, extra=None):
    """(ell, ell', ell'') for ell(f) = -(f-m)^2/(2v) + u log Phi(y f) [+ log(-log Phi(y f)) if extra == 'neglog']."""
    def ell(f):
        val = -(f - m) ** 2 / (2 * v) + u * logphi(y * f)
        if extra == 'neglog':
            val += mp.log(-logphi(y * f))
        return val

    def d1(f):
        z = y * f
        r = ratio(z)
        val = -(f - m) / v + u * y * r
        if extra == 'neglog':
            val += y * r / logphi(z)
        return val

    def d2(f):
        z = y * f
        r = ratio(z)
        val = -1 / v - u * r * (z + r)
        if extra == 'neglog':
            lg = logphi(z)
            val += (-r * (z + r) * lg - r * r) / lg ** 2
        return val
    return ell, d1, d2


def mode(d1, d2, start, scale):
    """The root of the decreasing ell' (ell concave): bracket by doubling steps, then Newton kept inside the bracket
    (bisection when a Newton step leaves it), to 1e-45 of the scale."""
    a = start
    da = d1(a)
    if da == 0:
        return a
    step = scale
    b = a + (step if da > 0 else -step)
    db = d1(b)
    while da * db > 0:
        a, da = b, db
        step *= 2
        b = a + (step if da > 0 else -step)
        db = d1(b)
    lo, hi = (a, b) if a < b else (b, a)
    x = (lo + hi) / 2
    for _ in range(2000):
        g = d1(x)
        if g == 0:
            return x
        if g > 0:
            lo = x
        else:
            hi = x
        nx = x - g / d2(x)
        if not (lo < nx < hi):
            nx = (lo + hi) / 2
        if abs(nx - x) <= mp.mpf('1e-45') * scale or hi - lo <= mp.mpf('1e-45') * scale:
            return nx
        x = nx
    raise RuntimeError('mode not found')


def integrals(ell, fstar, sigma, funcs, kink=None, method='gauss-legendre'):
    l0 = ell(fstar)
    pts = [mp.mpf(0)]
    for sgn in (1, -1):
        k = 0
        while True:
            t = sgn * mp.mpf(2) ** k
            pts.append(t)
            if ell(fstar + sigma * t) - l0 < -DROP:
                break
            k += 1
    lo, hi = min(pts), max(pts)
    if kink is not None:
        # the probit changes on the scale 1 in f around its kink f = 0, which can be far narrower than sigma:
        # break points at f = 0, +-2^j (j = -3 .. 6) inside the range (beyond |f| = 64 log Phi is 0 or smooth)
        for f in [mp.mpf(0)] + [sgn * mp.mpf(2) ** j for j in range(-3, 7) for sgn in (1, -1)]:
            tk = (f - fstar) / sigma
            if lo < tk < hi:
                pts.append(tk)
    pts = sorted(set(pts))
    out = []
    for h in funcs:
        g = lambda t: mp.exp(ell(fstar + sigma * t) - l0) * h(t, fstar + sigma * t)
        val, err = mp.quad(g, pts, method=method, error=True)
        if err > mp.mpf('1e-45') * max(abs(val), 1):
            raise RuntimeError('quadrature error estimate %s for %s' % (mp.nstr(err, 3), mp.nstr(val, 10)))
        out.append(val)
    return l0, out


def moments(y, m, v, u, method='gauss-legendre'):
    ell, d1, d2 = make_ell(y, m, v, u)
    fstar = mode(d1, d2, mp.mpf(m), mp.sqrt(v))
    sigma = 1 / mp.sqrt(-d2(fstar))
    l0, (z, e1, e2) = integrals(ell, fstar, sigma, [lambda t, f: 1, lambda t, f: t, lambda t, f: t * t],
                                kink=0, method=method)
    logz = l0 + mp.log(sigma * z) - mp.log(2 * mp.pi * v) / 2
    mt = e1 / z
    mean = fstar + sigma * mt
    var = sigma ** 2 * (e2 / z - mt ** 2)
    return logz, mean, var


def neglog_int(y, m, v, u, method='gauss-legendre'):
    """log int N(f|m,v) Phi(y f)^u (-log Phi(y f)) df."""
    ell, d1, d2 = make_ell(y, m, v, u, 'neglog')
    fstar = mode(d1, d2, mp.mpf(m), mp.sqrt(v))
    sigma = 1 / mp.sqrt(-d2(fstar))
    l0, (z,) = integrals(ell, fstar, sigma, [lambda t, f: 1], kink=0, method=method)
    return l0 + mp.log(sigma * z) - mp.log(2 * mp.pi * v) / 2


def e0e1(y, m, v, method='gauss-legendre'):
    logz1 = logphi(y * m / mp.sqrt(1 + v))  # Z_1 = Phi(y m / sqrt(1 + v)) (R&W eq. 3.82)
    l1 = neglog_int(y, m, v, 1, method)
    # E0: the weight N alone (u = 0), integrand -log Phi: ell = -(f-m)^2/(2v) + log(-log Phi(y f))
    e0 = -mp.exp(neglog_int(y, m, v, 0, method))
    e1 = -mp.exp(l1 - logz1)
    return e0, e1


def fmt(x):
    return mp.nstr(x, 40, min_fixed=1, max_fixed=0)


def points(rng, n):
    out = []
    for _ in range(n):
        y = rng.choice([-1, 1])
        if rng.random() < 0.125:
            m = 0.0
        else:
            m = rng.choice([-1, 1]) * 10 ** rng.uniform(-3, 6)
        v = 10 ** rng.uniform(-8, 6)
        out.append((y, float('%.6g' % m), float('%.6g' % v)))
    return out


def main(which):
    rng = random.Random(SEED)
    header = [l for l in __doc__.strip().splitlines()]
    if which in ('all', 'power'):
        rows = []
        fixed = [(y, s * 250.0, 1.0, 0.5) for y in (-1, 1) for s in (-1, 1)]
        fixed += [(y, s * 1e6, v, 0.5) for y in (-1, 1) for s in (-1, 1) for v in (1e-8, 1e6)]
        pts = [(y, m, v, rng.choice([0.1, 0.5, 0.8, 1.0, float('%.4g' % rng.uniform(0.01, 1))]))
               for (y, m, v) in points(rng, 110)]
        for k, (y, m, v, u) in enumerate(fixed + pts):
            logz, mean, var = moments(y, mp.mpf(m), mp.mpf(v), mp.mpf(u))
            if k % 8 == 0:
                l2, m2, v2 = moments(y, mp.mpf(m), mp.mpf(v), mp.mpf(u), method='tanh-sinh')
                for a, b in ((logz, l2), (mean, m2), (var, v2)):
                    if abs(a - b) > mp.mpf('1e-38') * max(abs(a), mp.mpf('1e-300')):
                        print('tanh-sinh disagrees', y, m, v, u, a, b, file=sys.stderr)
            if logz < -1e300:
                continue
            rows.append((y, m, v, u, logz, mean, var))
            print(k, y, m, v, u, mp.nstr(logz, 12), file=sys.stderr)
        with open('power-tilted.csv', 'w') as fh:
            for l in header:
                fh.write(('# ' + l).rstrip() + '\n')
            fh.write('y,m,v,u,log_z,mean,variance\n')
            for (y, m, v, u, a, b, c) in rows:
                fh.write('%d,%r,%r,%r,%s,%s,%s\n' % (y, m, v, u, fmt(a), fmt(b), fmt(c)))
    if which in ('all', 'elog'):
        rng = random.Random(SEED + 1)
        fixed = [(1, 0.0, v) for v in (1.0, 25.0, 100.0, 1e3, 1e4, 1e5, 1e6)]
        fixed += [(-1, 3.0, v) for v in (25.0, 1e4, 1e6)] + [(1, 3.0, v) for v in (25.0, 1e4, 1e6)]
        with open('tilted-expected-log.csv', 'w') as fh:
            for l in header:
                fh.write(('# ' + l).rstrip() + '\n')
            fh.write('y,m,v,e0,e1\n')
            for k, (y, m, v) in enumerate(fixed + points(rng, 50)):
                e0, e1 = e0e1(y, mp.mpf(m), mp.mpf(v))
                if k % 8 == 0:
                    f0, f1 = e0e1(y, mp.mpf(m), mp.mpf(v), method='tanh-sinh')
                    for a, b in ((e0, f0), (e1, f1)):
                        if abs(a - b) > mp.mpf('1e-38') * abs(a):
                            print('tanh-sinh disagrees', y, m, v, a, b, file=sys.stderr)
                if not (-1e300 < e0 < -1e-300 and -1e300 < e1 < -1e-300):
                    continue
                fh.write('%d,%r,%r,%s,%s\n' % (y, m, v, fmt(e0), fmt(e1)))
                fh.flush()
                print(k, y, m, v, mp.nstr(e0, 12), mp.nstr(e1, 12), file=sys.stderr)


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else 'all')
