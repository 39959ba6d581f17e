#!/usr/bin/env python3
"""Independent check of `approxgp regress` against scikit-learn's exact GP regression.

Data: scikit-learn's bundled `diabetes` regression set (Efron et al. 2004, "Least angle regression": 442 patients,
10 inputs, target a disease-progression score one year after baseline). It ships inside the scikit-learn
package (no download) and none of approxgp's Java tests uses it. A seeded random 80 % / 20 % split is written to
two CSV files; `bin/approxgp regress` is run on them exactly as a new user would, for each of the five models at
the command line's defaults (only --model, --train, --test, --target, --seed, --out, --summary), and its test RMSE
and MNLP (sVBSSGP paper §5 definitions, target units, predictive variance of y* including noise) are compared
with those of two independent references fitted on the same standardised training data:
  * sklearn's GaussianProcessRegressor with an SE-ARD kernel plus white noise, hyperparameters by maximum
    marginal likelihood with restarts (the model these approximations approximate);
  * ridge regression on random Fourier features of the SE kernel with as many basis functions as the model
    (the 2m or M its summary reports: 40 for ssgp, vssgp, svbssgp; 250 for pic; for dtc its default M, which
    grows with the data within a work budget: all 354 rows here), length-scale and penalty chosen by
    leave-one-out (bench_regress_defaults.rff_ridge), the baseline a sparse GP must beat.

Criteria (stated before the defaults were measured on this data; the same for every model):
  * converged: the summary says "converged": true -- at the defaults every fit on 354 rows must stop by its own
    rule (L-BFGS at a stationary point, the smoothed bound, SSGP's held-out early stopping), not at its cap;
  * RMSE at most 1.05 x the RFF ridge's with the same number of basis functions (a sparse GP with learned
    hyperparameters should be at least as good as ridge on random features; 5 % for the ridge's own luck of
    the draw) -- except svbssgp, whose criterion is its own target in the issue that set these (RMSE at most
    1.5 x the exact GP's): it predicted from the local data of the test point's partition (gamma = 0, now the
    default gamma is the leave-one-out choice of SparseRegression.leaveOneOutGamma); on this
    split it was once measured at 1.10 x the ridge's RMSE (59.04 against 53.67), now at 1.022 x (54.87) with the
    model's noise variance in the local predictive and 1.019 x (54.71) with each partition's own (the default,
    --predictive-noise local); bench_regress_defaults.py prints the ridge ratio for every model;
  * MNLP within 0.3 nats of the exact GP's (calibrated predictive variances; the sVBSSGP target of the issue
    that asked for this check), or better;
  * dtc only: its final bound (full batch, standardised target) must not exceed the exact GP's maximised log
    marginal likelihood (the bound is below log p(y | hyperparameters) at its own hyperparameters, which is below
    the maximum; 1e-6 relative slack for the optimiser).
A method also passes an RMSE/MNLP criterion when it is better than the reference.

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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_regress_defaults import FEATURES, rff_ridge  # noqa: E402  (ridge baseline, regress's default sizes)

METHODS = ["ssgp", "vssgp", "svbssgp", "dtc", "pic"]  # every model, at the command line's defaults
RIDGE_TOLERANCE = 0.05  # RMSE at most 1.05 x the RFF ridge's
SVBSSGP_EXACT_RATIO = 1.5  # svbssgp: RMSE at most 1.5 x the exact GP's
MNLP_TOLERANCE = 0.3  # nats above the exact GP's


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
                                                       "..", "bin", "approxgp"), help="path of bin/approxgp")
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

    ridge = {}

    def ridge_of(k):
        """The RFF ridge with k basis functions (computed once per k)."""
        if k not in ridge:
            rm, rv = rff_ridge(x[train_idx], x[test_idx], y[train_idx], k, args.seed)
            ridge[k] = metrics(y[test_idx], rm, rv)
            print(f"RFF ridge, {k} basis functions: RMSE {ridge[k][0]:.4f}, MNLP {ridge[k][1]:.4f}")
        return ridge[k]

    failures = []
    methods = args.methods.split(",") if args.methods else list(METHODS)
    for method in methods:
        out, summary = os.path.join(work, f"{method}.csv"), os.path.join(work, f"{method}.json")
        cmd = [args.approxgp, "regress", "--model", method, "--train", train_csv, "--test", test_csv,
               "--target", "target", "--seed", str(args.seed), "--out", out, "--summary", summary]
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
        # the ridge of the size the model ran at (its summary's; dtc's default M grows with the data)
        k = int(s.get("inducing", s.get("features", FEATURES[method])))
        ridge_rmse = ridge_of(k)[0]
        objective = s["trace"][-1]["objective"]
        ok_conv = s.get("converged") is True
        if method == "svbssgp":
            ok_rmse = rmse <= SVBSSGP_EXACT_RATIO * ex_rmse
        else:
            ok_rmse = rmse <= (1 + RIDGE_TOLERANCE) * ridge_rmse
        ok_mnlp = mnlp - ex_mnlp <= MNLP_TOLERANCE
        ok_obj = method != "dtc" or objective <= ex_lml + 1e-6 * abs(ex_lml)
        print(f"{method}: RMSE {rmse:.4f} ({rmse / ridge_rmse:.3f} x ridge-{k}, {100 * (rmse / ex_rmse - 1):+.2f} % "
              f"vs exact), MNLP {mnlp:.4f} ({mnlp - ex_mnlp:+.4f} vs exact), {s.get('stop_reason')} after "
              f"{s['iterations']} iterations, final objective {objective:.3f}, {s['train_seconds']:.2f} s  "
              f"{'ok' if ok_conv and ok_rmse and ok_mnlp and ok_obj else 'FAIL'}")
        if not ok_conv:
            failures.append(f"{method}: not converged at the defaults (stop reason {s.get('stop_reason')})")
        if not ok_rmse and method == "svbssgp":
            failures.append(f"{method}: RMSE {rmse:.4f} is above {SVBSSGP_EXACT_RATIO} x the exact GP's {ex_rmse:.4f}")
        elif not ok_rmse:
            failures.append(f"{method}: RMSE {rmse:.4f} is above {1 + RIDGE_TOLERANCE:.2f} x the RFF ridge's "
                            f"{ridge_rmse:.4f} ({k} basis functions)")
        if not ok_mnlp:
            failures.append(f"{method}: MNLP {mnlp:.4f} exceeds the exact GP's {ex_mnlp:.4f} by more than "
                            f"{MNLP_TOLERANCE}")
        if not ok_obj:
            failures.append(f"{method}: final bound {objective:.3f} is above the exact GP's log marginal "
                            f"likelihood {ex_lml:.3f}")
    if failures:
        print("check_regress: FAILED\n  " + "\n  ".join(failures), file=sys.stderr)
        return 1
    print("check_regress: all methods within tolerance of the exact GP")
    return 0


if __name__ == "__main__":
    sys.exit(main())
