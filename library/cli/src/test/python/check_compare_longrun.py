#!/usr/bin/env python3
"""Independent long-run check of `approxgp compare` on probit data it was not tuned on: its noise-removed errors and
its verdicts against a numpy sampler run far longer, written here from the mathematics alone.

Data: the first ROWS (default 150) rows of datasets/pima-indians-diabetes.csv (label `diabetes`, 1 -> +1; --data, --label
and --positive choose another of datasets/), features
standardised here (mean, population sd) and written to a CSV, so that Java and numpy build the same kernel matrix:
SE-iso, length-scale 2, signal variance 4, probit likelihood, prior mean 0. `bin/approxgp compare` runs on it as a user
would (methods ep, qp, vb, laplace, power-ep; its default budget), writing --summary and --marginals.

numpy, independently of the Java code:
  * EP (Rasmussen & Williams 2006, Algorithm 3.5, sequential sweeps to a site change below 1e-10), whose Gaussian
    N(mu, S) gives the ellipses; EP's marginals are also compared with Java's (a cross-check of the input, not a
    criterion of the sampler);
  * elliptical slice sampling (Murray, Adams & MacKay 2010, Fig. 2) with "prior" N(mu, S) and "likelihood"
    N(f | 0, K) prod Phi(y_i f_i) / N(f | mu, S), i.e. the exact posterior whatever N(mu, S) is (Nishihara, Murray &
    Adams 2014, section 3); CHAINS chains started at mu + 2 L_S z (over-dispersed), WARMUP transitions discarded,
    then DRAWS kept per chain;
  * Monte-Carlo standard errors by batch means (50 batches per chain), not by the Java code's ESS.

For each method m, with (mu_i, s2_i) its marginals (from --marginals) and the long-run truth (M_i, V_i) with batch-mean
errors (e_i, h_i): the long-run noise-removed squared errors
    mse_mean(m) = mean_i[(mu_i - M_i)^2 - e_i^2],  mse_var(m) = mean_i[(s2_i - V_i)^2 - h_i^2],
and the same from compare's summary (mean_rmse^2, variance_rmse^2; compare clips at 0, so the comparison is on
max(0, .) for both). The stated noise of compare's estimate, to first order in its truth's errors (eps_i, eta_i from
--marginals): sd = sqrt((4/n^2) sum (mu_i - m_i)^2 eps_i^2 + (2/n^2) sum eps_i^4) (and likewise for variances); the
long-run estimate's own sd the same with (e_i, h_i).

Criteria (stated in advance):
  * the long-run truth converged: split R-hat (classic, per latent, on 2*CHAINS half-chains) <= 1.01 for every latent;
  * every method's noise-removed mean and variance MSE from compare agree with the long-run ones within 3 combined
    sds (compare's stated noise and the long run's), or within 1e-12 absolutely when both are clipped at 0;
  * for each score compare ranks (posterior means, marginal variances, mean KL), the method it calls closest is the
    long run's closest; when it says "undecided between A, B, ...", the long run's closest is among them.

Usage: python3 check_compare_longrun.py [--rows 150] [--seed 0] [--draws 50000] [--keep DIR]
                                        [--data heart-scale.csv --label label --positive 1]
Exit 0 when every criterion holds, 1 otherwise; prints every number.
"""
import argparse
import csv
import math
import os
import re
import subprocess
import sys
import tempfile
import functools
import time

print = functools.partial(print, flush=True)  # noqa: A001 (progress shows while it runs)

import numpy as np
from scipy.special import log_ndtr, ndtr

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", ".."))
METHODS = ["ep", "qp", "vb", "laplace", "power-ep"]


def se_iso(x, ell, sf2):
    d2 = ((x[:, None, :] - x[None, :, :]) ** 2).sum(-1)
    return sf2 * np.exp(-0.5 * d2 / ell ** 2)


def ep_probit(k, y, tol=1e-10, max_sweeps=1000):
    """R&W Algorithm 3.5 (probit), sequential, Sigma and mu updated by rank-one steps, recomputed per sweep."""
    n = len(y)
    ttau = np.zeros(n)
    tnu = np.zeros(n)
    sigma = k.copy()
    mu = np.zeros(n)
    for _ in range(max_sweeps):
        old = np.concatenate([ttau, tnu])
        for i in range(n):
            tau_c = 1 / sigma[i, i] - ttau[i]
            nu_c = mu[i] / sigma[i, i] - tnu[i]
            mc, vc = nu_c / tau_c, 1 / tau_c
            z = y[i] * mc / math.sqrt(1 + vc)
            ratio = math.exp(-0.5 * z * z - log_ndtr(z)) / math.sqrt(2 * math.pi)  # N(z)/Phi(z)
            mhat = mc + y[i] * vc * ratio / math.sqrt(1 + vc)
            vhat = vc - vc ** 2 * ratio * (z + ratio) / (1 + vc)
            new_tau = max(1 / vhat - tau_c, 0.0)  # probit sites are never negative; kept as a guard
            dtt = new_tau - ttau[i]
            ttau[i] = new_tau
            tnu[i] = mhat / vhat - nu_c
            si = sigma[:, i].copy()
            sigma -= (dtt / (1 + dtt * si[i])) * np.outer(si, si)
            mu = sigma @ tnu
        # recompute from scratch (R&W eq. 3.68-3.70)
        s = np.sqrt(ttau)
        b = np.eye(n) + s[:, None] * k * s[None, :]
        lb = np.linalg.cholesky(b)
        v = np.linalg.solve(lb, s[:, None] * k)
        sigma = k - v.T @ v
        mu = sigma @ tnu
        if np.sqrt(np.mean((np.concatenate([ttau, tnu]) - old) ** 2)) < tol:
            break
    return mu, sigma


def ess_chains(k, y, mu, sigma, chains, warmup, draws, seed):
    """Elliptical slice sampling of N(f|0,K) prod Phi(y f) with ellipses from N(mu, Sigma); all chains in lockstep."""
    rng = np.random.default_rng(seed)
    n = len(y)
    lk = np.linalg.cholesky(k + 1e-10 * np.mean(np.diag(k)) * np.eye(n))
    ls = np.linalg.cholesky(sigma)

    ik = np.linalg.inv(lk).T  # f @ ik = (L_K^{-1} f)^T
    isg = np.linalg.inv(ls).T

    def loglik(f):  # log p*(f) - log q(f), up to a constant; f: (C, n)
        a = f @ ik
        b = (f - mu) @ isg
        return -0.5 * (a * a).sum(1) + 0.5 * (b * b).sum(1) + log_ndtr(y * f).sum(1)

    f = mu + 2 * (ls @ rng.standard_normal((n, chains))).T
    ll = loglik(f)
    out = np.empty((chains, draws, n))
    for t in range(warmup + draws):
        nu = (ls @ rng.standard_normal((n, chains))).T
        logh = ll + np.log(rng.uniform(size=chains))
        theta = rng.uniform(0, 2 * math.pi, size=chains)
        lo, hi = theta - 2 * math.pi, theta.copy()
        pending = np.ones(chains, bool)
        while pending.any():
            idx = np.nonzero(pending)[0]
            c, s = np.cos(theta[idx])[:, None], np.sin(theta[idx])[:, None]
            prop = mu + (f[idx] - mu) * c + nu[idx] * s  # nu ~ N(0, Sigma): the ellipse through f
            lp = loglik(prop)
            ok = lp > logh[idx]
            acc = idx[ok]
            f[acc] = prop[ok]
            ll[acc] = lp[ok]
            pending[acc] = False
            rej = idx[~ok]
            neg = theta[rej] < 0
            lo[rej[neg]] = theta[rej[neg]]
            hi[rej[~neg]] = theta[rej[~neg]]
            theta[rej] = rng.uniform(lo[rej], hi[rej])
        if t >= warmup:
            out[:, t - warmup] = f
    return out


def batch_se(x, batches=50):
    """x: (C, T) -> Monte-Carlo standard error of the mean by batch means (batches per chain)."""
    c, t = x.shape
    b = t // batches
    means = x[:, : b * batches].reshape(c, batches, b).mean(2).ravel()
    return means.std(ddof=1) / math.sqrt(len(means))


def split_rhat(x):
    c, t = x.shape
    h = t // 2
    s = np.concatenate([x[:, :h], x[:, t - h:]])
    w = s.var(1, ddof=1).mean()
    bn = s.mean(1).var(ddof=1)
    return math.sqrt(((h - 1) / h * w + bn) / w)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=150)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--chains", type=int, default=4)
    ap.add_argument("--warmup", type=int, default=2000)
    ap.add_argument("--draws", type=int, default=50000)
    ap.add_argument("--keep", default=None)
    ap.add_argument("--data", default="pima-indians-diabetes.csv", help="a file of datasets/ with numeric columns")
    ap.add_argument("--label", default="diabetes", help="its label column")
    ap.add_argument("--positive", default="1", help="the label value that is +1 (every other value is -1)")
    args = ap.parse_args()
    with open(os.path.join(ROOT, "datasets", args.data)) as fh:
        rows = list(csv.reader(fh))
    li = rows[0].index(args.label)
    header = [h for j, h in enumerate(rows[0]) if j != li] + [args.label]
    body = rows[1: 1 + args.rows]
    x = np.array([[float(v) for j, v in enumerate(r) if j != li] for r in body])
    y = np.array([1.0 if r[li].strip() == args.positive else -1.0 for r in body])
    sd = x.std(0)
    x = (x - x.mean(0)) / np.where(sd > 0, sd, 1.0)
    work = args.keep or tempfile.mkdtemp(prefix="check-compare-longrun-")
    os.makedirs(work, exist_ok=True)
    train = os.path.join(work, "train.csv")
    with open(train, "w") as fh:
        fh.write(",".join(header) + "\n")
        for i in range(len(y)):
            fh.write(",".join(repr(float(v)) for v in x[i]) + f",{int(y[i] > 0)}\n")
    summary, marg, report = (os.path.join(work, f) for f in ("summary.csv", "marginals.csv", "report.html"))
    cmd = [os.path.join(ROOT, "bin", "approxgp"), "compare", "--train", train, "--label", args.label,
           "--kernel", "se-iso", "--lengthscale", "2", "--signal-variance", "4", "--methods", ",".join(METHODS),
           "--seed", str(args.seed), "--summary", summary, "--marginals", marg, "--out", report]
    t0 = time.time()
    run = subprocess.run(cmd, capture_output=True, text=True)
    print(f"compare: exit {run.returncode}, {time.time() - t0:.1f} s wall")
    print(run.stderr.strip()[-3000:])
    if run.returncode != 0:
        return 1
    verdicts = dict(re.findall(r"compare: closest (posterior means|marginal variances|mean KL): (.*)", run.stderr))
    with open(summary) as fh:
        srows = {r["method"]: r for r in csv.DictReader(fh)}
    with open(marg) as fh:
        mr = list(csv.DictReader(fh))
    col = lambda name: np.array([float(r[name]) for r in mr])
    jm, jem, jv, jev = col("truth_mean"), col("truth_mean_se"), col("truth_variance"), col("truth_variance_se")
    meth = {m: (col(m + "_mean"), col(m + "_variance")) for m in METHODS}

    k = se_iso(x, 2.0, 4.0)
    mu, sigma = ep_probit(k, y)
    d_ep = max(np.abs(mu - meth["ep"][0]).max(), np.abs(np.diag(sigma) - meth["ep"][1]).max())
    print(f"numpy EP vs compare's EP marginals: max |difference| {d_ep:.2e}")
    t0 = time.time()
    draws = ess_chains(k, y, mu, sigma, args.chains, args.warmup, args.draws, 1000 + args.seed)
    n = len(y)
    lm = draws.mean((0, 1))
    lv = draws.var((0, 1), ddof=1)
    lem = np.array([batch_se(draws[:, :, i]) for i in range(n)])
    lev = np.array([batch_se((draws[:, :, i] - lm[i]) ** 2) for i in range(n)])
    rh = max(split_rhat(draws[:, :, i]) for i in range(n))
    print(f"long run: {args.chains} x {args.draws:,} draws after {args.warmup:,} warm-up, {time.time() - t0:.1f} s;"
          f" split R-hat max {rh:.4f}; RMS MC error of the means {math.sqrt(np.mean(lem ** 2)):.2e}"
          f" (compare's truth: {math.sqrt(np.mean(jem ** 2)):.2e}), of the variances"
          f" {math.sqrt(np.mean(lev ** 2)):.2e} (compare's: {math.sqrt(np.mean(jev ** 2)):.2e})")
    ok = True

    def check(cond, msg):
        nonlocal ok
        ok &= bool(cond)
        print(("PASS " if cond else "FAIL ") + msg)

    check(rh <= 1.01, f"long-run split R-hat max {rh:.4f} <= 1.01")

    def mse(est, tm, te):
        return np.mean((est - tm) ** 2 - te ** 2)

    def noise(est, tm, te):
        return math.sqrt(4 / n ** 2 * np.sum((est - tm) ** 2 * te ** 2) + 2 / n ** 2 * np.sum(te ** 4))

    def kl(m, v, tm, tv):
        return np.mean(0.5 * (np.log(v / tv) + (tv + (tm - m) ** 2) / v - 1))

    long_scores = {}
    print(f"{'method':9s} {'mean MSE: compare':>18s} {'long run':>10s} {'3 sd':>9s}   {'var MSE: compare':>17s}"
          f" {'long run':>10s} {'3 sd':>9s}   {'raw mean RMSE':>13s}")
    for m in METHODS:
        mm, mv = meth[m]
        jmse = float(srows[m]["mean_rmse"]) ** 2
        lmse = max(0.0, mse(mm, lm, lem))
        tol_m = 3 * math.hypot(noise(mm, jm, jem), noise(mm, lm, lem))
        jvse = float(srows[m]["variance_rmse"]) ** 2
        lvse = max(0.0, mse(mv, lv, lev))
        tol_v = 3 * math.hypot(noise(mv, jv, jev), noise(mv, lv, lev))
        raw = math.sqrt(np.mean((mm - jm) ** 2))
        print(f"{m:9s} {jmse:18.3e} {lmse:10.3e} {tol_m:9.2e}   {jvse:17.3e} {lvse:10.3e} {tol_v:9.2e}   {raw:13.4f}")
        check(abs(jmse - lmse) <= tol_m + 1e-12, f"{m}: noise-removed mean MSE {jmse:.3e} vs long run {lmse:.3e}")
        check(abs(jvse - lvse) <= tol_v + 1e-12, f"{m}: noise-removed variance MSE {jvse:.3e} vs long run {lvse:.3e}")
        long_scores[m] = (lmse, lvse, kl(mm, mv, lm, lv))
    for j, label in enumerate(["posterior means", "marginal variances", "mean KL"]):
        order = sorted(METHODS, key=lambda m: long_scores[m][j])
        v = verdicts.get(label, "")
        print(f"{label}: long-run order {' < '.join(order)}; compare: {v}")
        if "undecided between" in v:
            names = re.sub(r"\(.*?\)", "", v.split("undecided between", 1)[1]).replace(",", " ").split()
            check(order[0] in names, f"{label}: long run's closest {order[0]} is among compare's undecided {names}")
        else:
            named = v.split(",", 1)[0].split()[0] if v else "?"
            check(order[0] == named, f"{label}: compare's closest {named} is the long run's {order[0]}")
    print("ALL PASS" if ok else "SOME CHECKS FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
