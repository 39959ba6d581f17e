#!/usr/bin/env python3
"""Reference tables for the noisy-step likelihood of Qi & Guo, "Message passing with relaxed moment matching" (REP).

Run from this directory:  nice -n 19 python3 generate.py      (writes tilted.csv, power-tilted.csv, cdf.csv, w2.csv)

The reference values are computed by DIRECT numerical integration (mpmath.quad, mp.dps = 60, the interval split at
f = 0 where the step jumps and at m, m +- 2s, m +- 8s, truncated at m +- 20s (dropped mass < 3e-89)), NOT by the closed forms below. The
closed forms are implemented in mpmath too and compared with the quadrature; the maximum discrepancy is printed.

Likelihood (REP eq. 8):  p(y|f) = (1 - eps) H(y f) + eps H(-y f) = eps + (1 - 2 eps) H(y f),   y = +-1, 0 <= eps < 1/2,
H = Heaviside (H(0) = 1; a null set, irrelevant for all integrals).  Power (REP appendix C, eq. 41):
p(y|f)^u = a + (b - a) H(y f) with a = eps^u, b = (1 - eps)^u  (u = 1: a = eps, b - a = 1 - 2 eps).

Cavity N(f | m, v), s = sqrt(v), z = y m / s, phi/Phi = standard normal pdf/cdf (REP writes psi for Phi).

  Z_u   = int N(f|m,v) p^u df = a + (b - a) Phi(z)                                   (REP eq. 36 "Z-hat", eq. 41 denominator)
  alpha = d log Z_u / d(y m) = (b - a) phi(z) / (s Z_u)                            (REP eq. 14 with u = 1, eq. 41)
  mean  = m + y v alpha                                                             (REP eq. 14: h~ = h + lambda alpha, y = +1)
  var   = v - v alpha (v alpha + y m) = v [1 - s alpha (s alpha + z)]               (d^2 log Z/dm^2 = -alpha(alpha + y m/v))
        (REP eq. 15 gives the SITE: v_site = lambda (1/(alpha h~) - 1), m_site = h~ + v_site alpha, which equals
         1/(1/var - 1/v) and the natural-parameter difference; checked numerically below for y = +1.)
  Derivation: y f = g ~ N(y m, v); E[g; g > 0] = y m Phi(z) + s phi(z), E[g^2; g > 0] = (m^2 + v) Phi(z) + y m s phi(z),
  so Z mean = a m + (b-a)(m Phi + y s phi) and the variance follows from Var = v + v^2 d^2 log Z / dm^2.
  The variance can EXCEED v (when s alpha < -z, i.e. cavity on the wrong side with the eps floor competing), giving a
  negative site precision; it is always > 0.

  Tilted CDF (u = 1), q(f) = N(f|m,v) p(y|f) / Z:
    y = +1:  Z F(x) = eps Phi((x-m)/s) + (1-2eps) [Phi((x-m)/s) - Phi(-m/s)]_+          (the bracket is 0 for x < 0)
    y = -1:  Z F(x) = eps Phi((x-m)/s) + (1-2eps) Phi((min(x,0)-m)/s)
    Survival 1 - F is written the same way with Phi-bar (no cancellation for x in the right tail).
  W2 / quantile-propagation projection (QP paper eq. 18 and 23): mu* = mean, and
    sigma* = int_0^1 F^{-1}(p) Phi^{-1}(p) dp = E_q[f Phi^{-1}(F(f))] = int phi(Phi^{-1}(F(f))) df   (eq. 23 form).
    No closed form; the generator computes E_q[f Phi^{-1}(F(f))] (reference) and cross-checks with the eq. 23 form.
  Log predictive: log p(y*|D) = log Z with (m, v) the latent predictive mean/variance, i.e. the log_z column.
  eps -> 0: Z = Phi(z), alpha = phi(z)/(s Phi(z)) (probit-like with the step: R&W eq. 3.58 with 1 + v replaced by v).

Paper formulas checked numerically (here and in a scratch double-precision script):
  - eq. 14, 15 (u = 1) and eq. 41 (power u) are right, with the label absorbed (y = +1; Minka's convention). For
    y = -1 use z = y h/sqrt(lambda), mean = h + y lambda alpha, v_site = lambda (1/(alpha y mean) - 1),
    m_site = mean + y v_site alpha.  The eq.-15 site agrees with the moment-derived one to 5e-28 (limited by the
    cancellation in 1/var - 1/v of the reference, not by the formula).
  - eq. 11 writes r_i = N(f | m_i, b_i) with b_i a variance, but eq. 13 (lambda~ = 1/(1/lambda + b_i)), eq. 39 and the
    initialisation b_i = 0 need b_i to be a PRECISION.
  - eq. 16 ("remove r_i": v_i = 1/(1/v_ib + b_i)) adds the precision b_i, which contradicts the stated definition
    t~_ib = r_i t~_i (removing r_i subtracts b_i); see docs/derivations/relaxed-ep-readings.md for the possible readings.
  - eq. 36 (appendix B line-search objective) is not the normalised KL of the relaxed tilted distribution to its
    Gaussian projection plus a b-independent constant (difference 0.241 ... 0.347 for b = 1e-3 ... 3 at eps = 0.2),
    and it is singular at b = 0.
"""
import math
import os
import random
import statistics
import sys

import mpmath as mp

mp.mp.dps = 60
SEED = 20261123
EPS = ["1e-6", "0.01", "0.05", "0.1", "0.2", "0.3", "0.45"]
US = ["0.1", "0.5", "1", "2"]
NSIG = 30  # significant digits written


def fmt(x):
  return mp.nstr(x, NSIG, min_fixed=-5, max_fixed=5) if x != 0 else "0"


# ---------------------------------------------------------------- direct quadrature (the reference)
def breakpoints(m, s):
  lo, hi = m - 20 * s, m + 20 * s
  pts = {lo, hi, m, m - 2 * s, m + 2 * s, m - 8 * s, m + 8 * s}
  if lo < 0 < hi:
    pts.add(mp.mpf(0))
  return sorted(pts)


def lik_pow(f, y, eps, u):
  a, b = eps ** u, (1 - eps) ** u
  return b if y * f >= 0 else a


def integrate(g, m, s):
  pts = breakpoints(m, s)
  return mp.fsum(mp.quad(g, [pts[k], pts[k + 1]]) for k in range(len(pts) - 1))


def quad_moments(eps, y, m, v, u=1):
  s = mp.sqrt(v)
  dens = lambda f: mp.npdf(f, m, s) * lik_pow(f, y, eps, u)
  z = integrate(dens, m, s)
  mean = integrate(lambda f: f * dens(f), m, s) / z
  var = integrate(lambda f: (f - mean) ** 2 * dens(f), m, s) / z
  return mp.log(z), mean, var


def quad_cdf(eps, y, m, v, x):
  s = mp.sqrt(v)
  dens = lambda f: mp.npdf(f, m, s) * lik_pow(f, y, eps, 1)
  z = integrate(dens, m, s)
  pts = [p for p in breakpoints(m, s) if p < x] + [x]
  if x <= pts[0] or len(pts) < 2:
    return mp.mpf(0)
  return mp.fsum(mp.quad(dens, [pts[k], pts[k + 1]]) for k in range(len(pts) - 1)) / z


# ---------------------------------------------------------------- closed forms (checked against the quadrature)
def ncdfc(x):
  return mp.ncdf(-x)


def closed_moments(eps, y, m, v, u=1):
  a, b = eps ** u, (1 - eps) ** u
  s = mp.sqrt(v)
  z = y * m / s
  zu = a + (b - a) * mp.ncdf(z)
  alpha = (b - a) * mp.npdf(z) / (s * zu)
  return mp.log(zu), m + y * v * alpha, v - v * alpha * (v * alpha + y * m)


def closed_cdf_sf(eps, y, m, v, x):
  """(F(x), 1 - F(x)) of the tilted density, each without cancellation."""
  s = mp.sqrt(v)
  zz = eps + (1 - 2 * eps) * mp.ncdf(y * m / s)
  t, t0 = (x - m) / s, -m / s
  if y > 0:
    inner = ncdfc(t0) - ncdfc(t) if x > 0 else mp.mpf(0)          # P(0 <= f <= x)
    inner_sf = ncdfc(t) if x > 0 else ncdfc(t0)                     # P(f > max(x, 0))
    lower = eps * mp.ncdf(t) + (1 - 2 * eps) * inner
    upper = eps * ncdfc(t) + (1 - 2 * eps) * inner_sf
  else:
    inner = mp.ncdf(t) if x < 0 else mp.ncdf(t0)                    # P(f <= min(x, 0))
    inner_sf = mp.ncdf(t0) - mp.ncdf(t) if x < 0 else mp.mpf(0)     # P(x < f <= 0)
    lower = eps * mp.ncdf(t) + (1 - 2 * eps) * inner
    upper = eps * ncdfc(t) + (1 - 2 * eps) * inner_sf
  return lower / zz, upper / zz


def ninv(p):
  """Phi^{-1}(p) for 0 < p <= 1/2 at the working precision, also for p far below 10^-dps: Newton on
  log Phi(x) = log p from a double-precision (or asymptotic) start."""
  lp = mp.log(p)
  if p > mp.mpf("1e-300"):
    x = mp.mpf(statistics.NormalDist().inv_cdf(float(p)))
  else:
    x = -mp.sqrt(2 * mp.log(1 / p))
  for _ in range(100):
    c = mp.ncdf(x)
    dx = (mp.log(c) - lp) * c / mp.npdf(x)
    x -= dx
    if abs(dx) < mp.mpf(10) ** (-mp.mp.dps + 3) * (1 + abs(x)):
      break
  return x


def probit_of_cdf(eps, y, m, v, f):
  """Phi^{-1}(F(f)) using the smaller of F and 1 - F."""
  lo, up = closed_cdf_sf(eps, y, m, v, f)
  if lo <= up:
    return ninv(lo) if lo > 0 else -mp.inf
  return -ninv(up) if up > 0 else mp.inf


def w2_sigma(eps, y, m, v, check):
  """sigma* = E_q[f Phi^{-1}(F(f))] (reference) and, if check, the eq.-23 form int phi(Phi^{-1}(F(f))) df."""
  s = mp.sqrt(v)
  zz = eps + (1 - 2 * eps) * mp.ncdf(y * m / s)
  cache = {}

  def w_of(f):
    if f not in cache:
      cache[f] = probit_of_cdf(eps, y, m, v, f)
    return cache[f]

  def g1(f):
    q = mp.npdf(f, m, s) * lik_pow(f, y, eps, 1) / zz
    if q == 0:
      return mp.mpf(0)
    return f * q * w_of(f)

  def g2(f):
    w = w_of(f)
    return mp.mpf(0) if mp.isinf(w) else mp.npdf(w)

  return integrate(g1, m, s), (integrate(g2, m, s) if check else None)


def site_from_eq15(eps, m, v):
  """REP eq. 14-15 literally (y = +1, h = cavity mean, lambda = cavity variance): returns (v_site, m_site)."""
  lam, h = v, m
  z = h / mp.sqrt(lam)
  alpha = (1 - 2 * eps) * mp.npdf(z) / (mp.sqrt(lam) * (eps + (1 - 2 * eps) * mp.ncdf(z)))
  ht = h + lam * alpha
  vs = lam * (1 / (alpha * ht) - 1)
  return vs, ht + vs * alpha


# ---------------------------------------------------------------- point grid
def draw_points(rng, n, y):
  """n (m, v): v log-uniform on [1e-3, 1e3]; 2/3 of points m ~ U[-30, 30], 1/3 with z = y m/sqrt(v) ~ U[-40, -10]
  (far tail where Phi(z) << eps; rejected if |m| > 30)."""
  pts = []
  while len(pts) < n:
    v = mp.mpf(10) ** mp.mpf(rng.uniform(-3, 3))
    if len(pts) % 3 == 2:
      z = rng.uniform(-40, -10)
      m = mp.mpf(y * z) * mp.sqrt(v)
      if abs(m) > 30:
        continue
    else:
      m = mp.mpf(rng.uniform(-30, 30))
    pts.append((m, v))
  return pts


def header(name, columns, how):
  return ["# noisy-step likelihood p(y|f) = eps + (1 - 2 eps) H(y f) (Qi & Guo, REP eq. 8); cavity N(f | m, v).",
          "# " + how,
          "# Made by: cd library/core/src/test/resources/likelihood/noisy-step && nice -n 19 python3 generate.py",
          "# mpmath %s, mp.dps = 60, direct mpmath.quad over [m-20s, m+20s] split at f = 0, m, m+-2s, m+-8s (s = sqrt v);"
          % mp.__version__,
          "# %d significant digits written. Points: random.Random(%d + k) (k = table index), v log-uniform on"
          % (NSIG, SEED),
          "# [1e-3, 1e3], m ~ U[-30, 30] for 2/3 of the points and y m/sqrt(v) ~ U[-40, -10] (far tail) for 1/3.",
          columns]


def main():
  only = set(sys.argv[1:])
  maxdiff = {}

  def note(key, a, b, rel_scale=1):
    d = abs(a - b) / max(1, abs(rel_scale))
    maxdiff[key] = max(maxdiff.get(key, mp.mpf(0)), d)

  if not only or "tilted" in only:
    rng = random.Random(SEED + 0)
    rows = header("tilted", "eps,y,m,v,log_z,mean,variance",
                  "Tilted (u = 1) log Z, mean, variance of N(f|m,v) p(y|f). log_z is also the log predictive.")
    site_err = mp.mpf(0)
    for e in EPS:
      eps = mp.mpf(e)
      for y in (-1, 1):
        for m, v in draw_points(rng, 24, y):
          lz, mu, var = quad_moments(eps, y, m, v)
          c = closed_moments(eps, y, m, v)
          note("tilted.log_z", lz, c[0], lz)
          note("tilted.mean", mu, c[1], mu)
          note("tilted.variance", var, c[2], var)
          if y == 1 and abs(var - v) > mp.mpf(10) ** -40 * v:
            vs, ms = site_from_eq15(eps, m, v)
            vs_ref = 1 / (1 / var - 1 / v)
            ms_ref = vs_ref * (mu / var - m / v)
            site_err = max(site_err, abs(vs - vs_ref) / abs(vs_ref), abs(ms - ms_ref) / max(1, abs(ms_ref)))
          rows.append(",".join([e, str(y), fmt(m), fmt(v), fmt(lz), fmt(mu), fmt(var)]))
    open("tilted.csv", "w").write("\n".join(rows) + "\n")
    print("tilted rows", len(rows) - 7, "; REP eq. 14-15 site vs moment-derived site, max rel diff", mp.nstr(site_err, 3))

  if not only or "power" in only:
    rng = random.Random(SEED + 1)
    rows = header("power-tilted", "eps,y,m,v,u,log_z,mean,variance",
                  "Power-tilted log Z, mean, variance of N(f|m,v) p(y|f)^u (REP appendix C, eq. 41).")
    for e in EPS:
      eps = mp.mpf(e)
      for y in (-1, 1):
        for m, v in draw_points(rng, 7, y):
          for us in US:
            u = mp.mpf(us)
            lz, mu, var = quad_moments(eps, y, m, v, u)
            c = closed_moments(eps, y, m, v, u)
            note("power.log_z", lz, c[0], lz)
            note("power.mean", mu, c[1], mu)
            note("power.variance", var, c[2], var)
            rows.append(",".join([e, str(y), fmt(m), fmt(v), us, fmt(lz), fmt(mu), fmt(var)]))
    open("power-tilted.csv", "w").write("\n".join(rows) + "\n")
    print("power-tilted rows", len(rows) - 7)

  if not only or "cdf" in only:
    rng = random.Random(SEED + 2)
    rows = header("cdf", "eps,y,m,v,x,cdf",
                  "Tilted CDF F(x) = int_{-inf}^x N(f|m,v) p(y|f) df / Z at x = tilted quantiles (closed form,"
                  " bisection) for p in {1e-6, 0.02, 0.3, 0.5, 0.7, 0.98} and x = 0 (the jump); cdf by quadrature.")
    for e in EPS:
      eps = mp.mpf(e)
      for y in (-1, 1):
        for m, v in draw_points(rng, 5, y):
          s = mp.sqrt(v)
          xs = [mp.mpf(0)]
          for p in ("1e-6", "0.02", "0.3", "0.5", "0.7", "0.98"):
            p = mp.mpf(p)
            lo, hi = m - 60 * s, m + 60 * s
            for _ in range(120):  # bisection on the closed-form F; only places x, the value is by quadrature
              mid = (lo + hi) / 2
              if closed_cdf_sf(eps, y, m, v, mid)[0] < p:
                lo = mid
              else:
                hi = mid
            xs.append(mp.mpf(mp.nstr((lo + hi) / 2, 25)))
          for x in xs:
            cq = quad_cdf(eps, y, m, v, x)
            lo_c, up_c = closed_cdf_sf(eps, y, m, v, x)
            note("cdf", cq, lo_c)
            note("cdf.sf", 1 - cq, up_c)
            rows.append(",".join([e, str(y), fmt(m), fmt(v), fmt(x), fmt(cq)]))
    open("cdf.csv", "w").write("\n".join(rows) + "\n")
    print("cdf rows", len(rows) - 7)

  if not only or "w2" in only:
    rng = random.Random(SEED + 3)
    rows = header("w2", "eps,y,m,v,sigma_w2",
                  "W2 (quantile-propagation) sigma* = int_0^1 F^{-1}(p) Phi^{-1}(p) dp = E_q[f Phi^{-1}(F(f))]"
                  " (QP paper eq. 18), F by the closed form; eq. 23 form as a check on point indices k = 0, 3, 6, ...")
    grid = [(e, y, draw_points(rng, 16, y)) for e in EPS for y in (-1, 1)]
    for k in range(16):  # point index outermost: a table cut short still covers every (eps, y)
      for e, y, pts in grid:
        m, v = pts[k]
        sig, sig23 = w2_sigma(mp.mpf(e), y, m, v, k % 3 == 0)  # eq.-23 cross-check on every third point (cost)
        if sig23 is not None:
          note("w2 (eq.18 vs eq.23 forms)", sig, sig23, sig)
          print("w2 check", e, y, mp.nstr(abs(sig - sig23) / sig, 3), flush=True)
        rows.append(",".join([e, str(y), fmt(m), fmt(v), fmt(sig)]))
        tmp = "w2.csv.tmp"
        open(tmp, "w").write("\n".join(rows) + "\n")  # incremental: a partial table survives
        os.replace(tmp, "w2.csv")
    print("w2 rows", len(rows) - 7)

  for k, d in sorted(maxdiff.items()):
    print("max discrepancy quadrature vs closed form (abs/max(1,|ref|))  %-28s %s" % (k, mp.nstr(d, 3)))
  print("OVERALL", mp.nstr(max(maxdiff.values()), 3))


if __name__ == "__main__":
  main()
