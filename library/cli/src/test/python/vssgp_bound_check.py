#!/usr/bin/env python3
"""Independent evaluation of the VSSGP variational lower bound (numpy), to check org.approxgp.sparse.Vssgp.

How it was made: written from the equations of Gal & Turner (2015), "Improving the Gaussian process sparse
spectrum approximation by representing uncertainty in frequency inputs", ICML — the lower bound of §4 (their
factorised q(ω) q(a), eq. 7–8: L = E_q[log p(Y | ω, a)] − KL(q(a) ‖ p(a)) − KL(q(ω) ‖ p(ω)), whose data term
needs only E_q[Φ] and E_q[ΦᵀΦ]), in the sin/cos (phase-free) basis of the sVBSSGP paper (Hoang, Hoang & Low
2017, eq. 1–2) and the parameterisation Vssgp packs (class comment of Vssgp.java): frequencies in
length-scale units ω ~ N(0, I), q(ω_kj) = N(μ_kj, s_kj), features cos(ω_kᵀ x/ℓ), sin(ω_kᵀ x/ℓ), prior
a ~ N(0, (σ²/m) I), q(a) = N(μ_a, L_a L_aᵀ), noise σₙ². It does not reuse any Java code or its formulas' layout:
  * E[φ φᵀ] is computed pairwise for every pair of features from the product-to-sum identities
    cos u cos w = ½[cos(u − w) + cos(u + w)], sin u sin w = ½[cos(u − w) − cos(u + w)],
    sin u cos w = ½[sin(u + w) + sin(u − w)] and E[e^{iz}] = e^{i E z − Var z / 2} for the Gaussian z = u ± w,
    with Var(u ± w) = Var u + Var w ± 2 Cov(u, w) and Cov(z_k, z_l) = δ_kl Σ_j s_kj (x_j/ℓ_j)² (independent
    frequencies under q). The Java code instead uses E[φ]E[φ]ᵀ plus 2 × 2 block corrections.
  * The KL terms are the general multivariate-normal formula with numpy's slogdet and trace.
  * Also the "collapsed" bound max_{q(a)} L (Titsias-style; q(a) optimal in closed form) is given, via
    −½ log|I + (σ²/m) Ψ/σₙ²| + ½ bᵀ(Ψ + (mσₙ²/σ²) I)⁻¹ b/σₙ² − yᵀy/(2σₙ²) − (n/2) log 2πσₙ² − KL(q(ω) ‖ p(ω)),
    Ψ = Σ_n E[φ_n φ_nᵀ], b = Σ_n y_n E[φ_n].

Input: a parameter file written by the Java side (first line "m d n", then the packed parameter vector, one
number a line: μ_ω (m·d, row-major), log s_ω (m·d), log ℓ (d), log σ², log σₙ², μ_a (2m), then the lower triangle
of L_a row by row with the diagonal stored as its logarithm) and a data file (n rows: d inputs then the target).
Prints the bound, its three parts and the collapsed bound, as JSON.

Used by: VssgpBoundTableTest reads library/core/src/test/resources/org/approxgp/sparse/vssgp-bound-table.txt, made by
`vssgp_bound_check.py --table` (this file's generate_table()), which evaluates this code at seeded random parameters
on a seeded random data set defined here (so the Java test does not depend on Python at run time).
"""

import argparse
import json
import math
import sys

import numpy as np


def unpack(p, m, d):
    k = 2 * m
    o = 0
    mu_w = p[o:o + m * d].reshape(m, d); o += m * d
    s_w = np.exp(p[o:o + m * d]).reshape(m, d); o += m * d
    ell = np.exp(p[o:o + d]); o += d
    sf2 = math.exp(p[o]); sn2 = math.exp(p[o + 1]); o += 2
    mu_a = p[o:o + k].copy(); o += k
    L = np.zeros((k, k))
    for r in range(k):
        row = p[o:o + r + 1].copy(); o += r + 1
        row[r] = math.exp(row[r])
        L[r, :r + 1] = row
    assert o == len(p), (o, len(p))
    return mu_w, s_w, ell, sf2, sn2, mu_a, L


def feature_moments(x, mu_w, s_w, ell):
    """E[φ] (n × 2m) and Σ_n E[φ φᵀ] (2m × 2m); φ = (cos z_1, sin z_1, cos z_2, ...), z_k = ω_kᵀ(x/ℓ)."""
    u = x / ell
    mean_z = u @ mu_w.T                      # n × m
    var_z = (u ** 2) @ s_w.T                 # n × m
    n, m = mean_z.shape
    ephi = np.empty((n, 2 * m))
    ephi[:, 0::2] = np.exp(-var_z / 2) * np.cos(mean_z)
    ephi[:, 1::2] = np.exp(-var_z / 2) * np.sin(mean_z)
    psi = np.zeros((2 * m, 2 * m))
    eye = np.eye(m)
    for i in range(n):
        mk, vk = mean_z[i], var_z[i]
        # Var(z_k ± z_l) = v_k + v_l ± 2 δ_kl v_k
        vsum = vk[:, None] + vk[None, :] + 2 * eye * vk[:, None]
        vdif = vk[:, None] + vk[None, :] - 2 * eye * vk[:, None]
        msum = mk[:, None] + mk[None, :]
        mdif = mk[:, None] - mk[None, :]
        cs, cd = np.exp(-vsum / 2) * np.cos(msum), np.exp(-vdif / 2) * np.cos(mdif)
        ss, sd = np.exp(-vsum / 2) * np.sin(msum), np.exp(-vdif / 2) * np.sin(mdif)
        # E[cos z_k cos z_l], E[sin z_k sin z_l], E[cos z_k sin z_l] = ½ E[sin(z_k + z_l) − sin(z_k − z_l)]
        psi[0::2, 0::2] += 0.5 * (cd + cs)
        psi[1::2, 1::2] += 0.5 * (cd - cs)
        psi[0::2, 1::2] += 0.5 * (ss - sd)
        psi[1::2, 0::2] += 0.5 * (ss + sd)
    return ephi, psi


def kl_gauss(mu, cov, prior_var):
    """KL(N(mu, cov) ‖ N(0, prior_var I))."""
    k = len(mu)
    sign, logdet = np.linalg.slogdet(cov)
    assert sign > 0
    return 0.5 * (np.trace(cov) / prior_var + mu @ mu / prior_var - k + k * math.log(prior_var) - logdet)


def bound(p, m, x, y):
    n, d = x.shape
    mu_w, s_w, ell, sf2, sn2, mu_a, L = unpack(np.asarray(p, dtype=float), m, d)
    ephi, psi = feature_moments(x, mu_w, s_w, ell)
    S = L @ L.T
    b = ephi.T @ y
    ell_term = (-0.5 * n * math.log(2 * math.pi * sn2)
                - (y @ y - 2 * b @ mu_a + np.sum(psi * (np.outer(mu_a, mu_a) + S))) / (2 * sn2))
    kl_w = sum(kl_gauss(mu_w[k], np.diag(s_w[k]), 1.0) for k in range(m))
    lam = sf2 / m
    kl_a = kl_gauss(mu_a, S, lam)
    kk = 2 * m
    sign, ld = np.linalg.slogdet(np.eye(kk) + lam * psi / sn2)
    collapsed = (-0.5 * ld + 0.5 * b @ np.linalg.solve(psi + (sn2 / lam) * np.eye(kk), b) / sn2
                 - y @ y / (2 * sn2) - 0.5 * n * math.log(2 * math.pi * sn2) - kl_w)
    return {"bound": ell_term - kl_w - kl_a, "expected_log_likelihood": ell_term, "kl_frequencies": kl_w,
            "kl_weights": kl_a, "collapsed": collapsed}


def table_cases():
    """Seeded random problems and parameters for the committed table (small m so the table is short)."""
    rng = np.random.default_rng(9)
    cases = []
    for m, d, n in [(3, 2, 17), (5, 3, 40), (8, 4, 25)]:
        x = rng.standard_normal((n, d))
        y = np.sin(x.sum(axis=1)) + 0.3 * rng.standard_normal(n)
        k = 2 * m
        p = np.concatenate([rng.standard_normal(m * d), np.log(rng.uniform(0.05, 1.5, m * d)),
                            np.log(rng.uniform(0.5, 2.0, d)), [math.log(rng.uniform(0.5, 2.0))],
                            [math.log(rng.uniform(0.05, 0.5))], 0.3 * rng.standard_normal(k)])
        tri = []
        for r in range(k):
            row = 0.1 * rng.standard_normal(r + 1)
            row[r] = math.log(rng.uniform(0.05, 0.6))
            tri.extend(row)
        cases.append((m, x, y, np.concatenate([p, tri])))
    return cases


def generate_table(out):
    """Writes the table the Java test reads: per case 'case m d n', the data rows, the parameters, the values."""
    for c, (m, x, y, p) in enumerate(table_cases()):
        n, d = x.shape
        r = bound(p, m, x, y)
        out.write(f"case {m} {d} {n}\n")
        for i in range(n):
            out.write(" ".join(repr(float(v)) for v in x[i]) + " " + repr(float(y[i])) + "\n")
        out.write(" ".join(repr(float(v)) for v in p) + "\n")
        out.write(" ".join(repr(float(r[key])) for key in
                           ("bound", "expected_log_likelihood", "kl_frequencies", "kl_weights", "collapsed")) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("params", nargs="?", help="parameter file (first line 'm d n', then one number a line)")
    ap.add_argument("data", nargs="?", help="data file: n rows of d inputs and the target")
    ap.add_argument("--table", action="store_true", help="write the JUnit test's table to stdout")
    a = ap.parse_args()
    if a.table:
        generate_table(sys.stdout)
        return 0
    with open(a.params) as f:
        m, d, n = (int(t) for t in f.readline().split())
        p = np.array([float(line) for line in f if line.strip()])
    data = np.loadtxt(a.data, ndmin=2)
    x, y = data[:, :d], data[:, d]
    assert x.shape == (n, d)
    print(json.dumps(bound(p, m, x, y)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
