#!/usr/bin/env python3
"""Independent check of `approxgp regress` against scikit-learn's exact GP regression.

Data: scikit-learn's bundled `diabetes` regression set (Efron et al. 2004, "Least angle regression": 442 patients,
10 inputs, target a disease-progression score one year after baseline). It ships inside the scikit-learn
package (no download) and none of approxgp's Java tests uses it. A seeded random 80 % / 20 % split is written to
two CSV files; `bin/approxgp regress` is run on them exactly as a user would (the CLI contract of issue 9:
--model, --train, --test, --target, --features, --inducing, --iterations, --seed, --out, --summary), and its
test RMSE and MNLP (sVBSSGP paper §5 definitions, target units, predictive variance of y* including noise) are
compared with those of sklearn's GaussianProcessRegressor with an SE-ARD kernel plus white noise, its
hyperparameters fitted by maximum marginal likelihood on the same standardised training data (the reference
these approximations approximate).

Criteria (stated in advance, from what each approximation is):
  * vssgp, m = 100 frequencies (2m = 200 features), full batch: the sparse-spectrum feature family, fitted by a
    variational bound with a factorised q over the frequencies (Gal & Turner 2015), which guards against SSGP's
    overfitting at the price of some fit: test RMSE within 5 % of the exact GP's (relative), MNLP within 0.15
    nats.
  * dtc, M = 200 inducing points (k-means centroids) of 354 training rows: the SVGP posterior (Hensman et al.
    2013) is exact when the inducing points span the data; with M > n/2 in 10 dimensions the Nystrom error is
    small: RMSE within 5 %, MNLP within 0.10 nats. Its final bound (full batch, standardised target) must not
    exceed the exact GP's maximised log marginal likelihood (the bound is below log p(y | hyperparameters) at
    its own hyperparameters, which is below the maximum; 1e-6 relative slack for the optimiser).
  * ssgp, m = 100: SSGP maximises its exact marginal likelihood over 100 x 10 frequencies and the
    hyperparameters, and on 354 noisy rows it overfits (Lazaro-Gredilla et al. 2010 §6; Gal & Turner 2015 §1
    motivate VSSGP by it): its likelihood must reach at least the exact GP's (its model class approximates the
    SE-ARD kernel to O(m^-1/2) and has 1,000 more free parameters), while its test RMSE and MNLP are printed for
    the record, not checked (measured at the default seed: RMSE +36 %, i.e. the overfitting is real, not a
    tolerance question).
A method also passes an RMSE/MNLP criterion when it is better than the exact GP (an approximation may beat the
exact GP's ML-II fit on one split; the check is about not being worse).

Measured after VSSGP's and DTC's full-batch fits became L-BFGS on their collapsed bounds (q(a), q(u) optimal at
each iterate; issue 9), on the native backend (EJML identical to these digits except where given). Test RMSE vs the
exact GP, by --seed:
  seed 20240 (default): vssgp +4.72 % (EJML +4.57 %), dtc -0.01 %;  seed 1: vssgp +5.26 % FAIL, dtc +0.00 %;
  seed 2: vssgp +6.28 % FAIL, dtc -0.00 %;  seed 3: vssgp +2.41 %, dtc +0.00 %.
At converged bounds (gradient ~1e-3) VSSGP with m = 100 is 2-6 % worse than the exact GP on this data, so its 5 %
criterion holds on two of these four splits; the earlier 2,000 Adam steps were worse on every seed (+5.4, +6.4,
+7.4, +2.5 %). DTC with M = 200 now reaches the exact GP's hyperparameters and RMSE.

Exit status 0 when every method passes, 1 otherwise, 2 when the check cannot run (no scikit-learn: the caller,
.ci/check-regress, installs it).
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    from sklearn.datasets import load_diabetes
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel
except ImportError as e:  # pragma: no cover - reported to the caller
    print(f"check_regress: scikit-learn/numpy not available ({e})", file=sys.stderr)
    sys.exit(2)

# method -> (extra CLI arguments, relative RMSE tolerance, absolute MNLP tolerance; None: not checked)
METHODS = {
    "ssgp": (["--features", "200", "--iterations", "300"], None, None),
    "vssgp": (["--features", "200", "--iterations", "2000", "--minibatch", "100000"], 0.05, 0.15),
    "dtc": (["--inducing", "200", "--iterations", "300", "--minibatch", "100000"], 0.05, 0.10),
}


def metrics(y, mean, var):
    """RMSE and MNLP (sVBSSGP paper §5): sqrt(mean (y - mu)^2) and 0.5 mean((y - mu)^2 / s^2 + log(2 pi s^2))."""
    y, mean, var = np.asarray(y), np.asarray(mean), np.asarray(var)
    rmse = float(np.sqrt(np.mean((y - mean) ** 2)))
    mnlp = float(0.5 * np.mean((y - mean) ** 2 / var + np.log(2 * math.pi * var)))
    return rmse, mnlp


def write_csv(path, names, x, y):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(names + ["target"])
        for row, t in zip(x, y):
            w.writerow([repr(float(v)) for v in row] + [repr(float(t))])


def exact_gp(x_train, y_train, x_test, seed):
    """sklearn's exact GP on inputs and target standardised with the training statistics; back to units."""
    mx, sx = x_train.mean(axis=0), x_train.std(axis=0, ddof=1)
    my, sy = y_train.mean(), y_train.std(ddof=1)
    d = x_train.shape[1]
    kernel = ConstantKernel(1.0, (1e-3, 1e3)) * RBF(np.ones(d), (1e-2, 1e5)) + WhiteKernel(0.5, (1e-4, 10.0))
    gp = GaussianProcessRegressor(kernel=kernel, n_restarts_optimizer=4, random_state=seed)
    gp.fit((x_train - mx) / sx, (y_train - my) / sy)
    mu, sd = gp.predict((x_test - mx) / sx, return_std=True)
    return my + sy * mu, (sy * sd) ** 2, gp.kernel_, gp.log_marginal_likelihood_value_


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--approxgp", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "..",
                                                       "bin", "approxgp"), help="path of bin/approxgp")
    ap.add_argument("--seed", type=int, default=20240, help="seed of the split and of every fit")
    ap.add_argument("--keep", help="directory to keep the CSV and JSON files in (default: a temporary one)")
    ap.add_argument("--methods", help="comma-separated subset of " + ",".join(METHODS))
    args = ap.parse_args()

    data = load_diabetes()
    x, y = np.asarray(data.data, dtype=float), np.asarray(data.target, dtype=float)
    rng = np.random.default_rng(args.seed)
    perm = rng.permutation(len(y))
    n_test = len(y) // 5
    test_idx, train_idx = np.sort(perm[:n_test]), np.sort(perm[n_test:])
    names = [f"x{j}" for j in range(x.shape[1])]

    work = args.keep or tempfile.mkdtemp(prefix="check-regress-")
    os.makedirs(work, exist_ok=True)
    train_csv, test_csv = os.path.join(work, "train.csv"), os.path.join(work, "test.csv")
    write_csv(train_csv, names, x[train_idx], y[train_idx])
    write_csv(test_csv, names, x[test_idx], y[test_idx])

    ex_mean, ex_var, kernel, ex_lml = exact_gp(x[train_idx], y[train_idx], x[test_idx], args.seed)
    ex_rmse, ex_mnlp = metrics(y[test_idx], ex_mean, ex_var)
    print(f"diabetes: {len(train_idx)} training rows, {n_test} test rows, {x.shape[1]} inputs, seed {args.seed}")
    print(f"exact GP (sklearn {__import__('sklearn').__version__}): RMSE {ex_rmse:.4f}, MNLP {ex_mnlp:.4f}, "
          f"log marginal likelihood (standardised target) {ex_lml:.3f}; {kernel}")

    failures = []
    methods = args.methods.split(",") if args.methods else list(METHODS)
    for method in methods:
        extra, rmse_tol, mnlp_tol = METHODS[method]
        out, summary = os.path.join(work, f"{method}.csv"), os.path.join(work, f"{method}.json")
        cmd = [args.approxgp, "regress", "--model", method, "--train", train_csv, "--test", test_csv,
               "--target", "target", "--seed", str(args.seed), "--out", out, "--summary", summary] + extra
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            failures.append(f"{method}: exit {r.returncode}: {r.stderr.strip()}")
            print(f"{method}: FAILED to run: {r.stderr.strip()}")
            continue
        with open(out) as f:
            rows = list(csv.DictReader(f))
        mean = [float(row["mean"]) for row in rows]
        var = [float(row["variance"]) for row in rows]
        rmse, mnlp = metrics(y[test_idx], mean, var)
        with open(summary) as f:
            s = json.load(f)
        # the summary's own metrics must agree with the predictions file (the CLI contract)
        if abs(s["rmse"] - rmse) > 1e-9 * max(1.0, rmse) or abs(s["mnlp"] - mnlp) > 1e-9 * max(1.0, abs(mnlp)):
            failures.append(f"{method}: summary rmse/mnlp {s['rmse']}/{s['mnlp']} differ from the predictions' "
                            f"{rmse}/{mnlp}")
        rel = rmse / ex_rmse - 1
        objective = s["trace"][-1]["objective"]
        ok_rmse = rmse_tol is None or rel <= rmse_tol
        ok_mnlp = mnlp_tol is None or mnlp - ex_mnlp <= mnlp_tol
        ok_obj = True
        if method == "ssgp":
            ok_obj = objective >= ex_lml
        elif method == "dtc":
            ok_obj = objective <= ex_lml + 1e-6 * abs(ex_lml)
        tol = "not checked" if rmse_tol is None else f"tolerance +{100 * rmse_tol:.0f} %"
        mtol = "not checked" if mnlp_tol is None else f"tolerance +{mnlp_tol:.2f}"
        print(f"{method}: RMSE {rmse:.4f} ({100 * rel:+.2f} % vs exact, {tol}), "
              f"MNLP {mnlp:.4f} ({mnlp - ex_mnlp:+.4f} vs exact, {mtol}), final objective {objective:.3f}, "
              f"{s['train_seconds']:.2f} s  {'ok' if ok_rmse and ok_mnlp and ok_obj else 'FAIL'}")
        if not ok_rmse:
            failures.append(f"{method}: RMSE {rmse:.4f} is {100 * rel:.2f} % above the exact GP's {ex_rmse:.4f}")
        if not ok_mnlp:
            failures.append(f"{method}: MNLP {mnlp:.4f} exceeds the exact GP's {ex_mnlp:.4f} by more than {mnlp_tol}")
        if not ok_obj:
            relation = "below" if method == "ssgp" else "above"
            failures.append(f"{method}: final objective {objective:.3f} is {relation} the exact GP's log marginal "
                            f"likelihood {ex_lml:.3f}")
    if failures:
        print("check_regress: FAILED\n  " + "\n  ".join(failures), file=sys.stderr)
        return 1
    print("check_regress: all methods within tolerance of the exact GP")
    return 0


if __name__ == "__main__":
    sys.exit(main())
