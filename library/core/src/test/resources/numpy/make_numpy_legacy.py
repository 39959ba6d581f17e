#!/usr/bin/env python3
"""Reference values of NumPy's legacy generator (np.random.seed(int) / RandomState) for
org.approxgp.data.NumpyLegacyRandomTest. Run from this directory:

    python3 make_numpy_legacy.py > numpy_legacy.txt

Lines (space-separated, after '#' header lines):
  uint32 SEED v1 .. v8        first 8 raw MT19937 outputs (randint(0, 2**32, dtype=uint32) returns them as drawn)
  rand SEED v1 .. v6          first 6 np.random.rand() doubles (repr, round-trips exactly)
  mining SEED b1 .. b112      the QP authors' coal split: 112 x (np.random.rand() > 0.5), 1 = training
  shuffle SEED N i1 .. iN     row order after np.random.seed(SEED); np.random.shuffle(rows of an N-row array)
                              (the authors' split_data), i.e. shuffled np.arange(N)
  permutation SEED N i1 .. iN np.random.permutation(N) after np.random.seed(SEED)
  interval SEED MAX v1 .. v6  np.random.randint(0, MAX + 1) six times (legacy bounded ints, masked rejection)
"""
import sys
import numpy as np

print("# made by make_numpy_legacy.py with numpy " + np.__version__ + ", python " + sys.version.split()[0])
print("# legacy global generator: np.random.seed(int), RandomState (MT19937)")
for seed in [0, 1, 10, 42, 990, 4294967295]:
    rs = np.random.RandomState(seed)
    print("uint32", seed, *[int(v) for v in rs.randint(0, 2**32, size=8, dtype=np.uint32)])
for seed in [0, 1, 10, 12345, 4294967295]:
    np.random.seed(seed)
    print("rand", seed, *[repr(float(np.random.rand())) for _ in range(6)])
for seed in [0, 1, 2, 199]:
    np.random.seed(seed)
    print("mining", seed, *[int(np.random.rand() > 0.5) for _ in range(112)])
for seed, n in [(0, 10), (0, 351), (10, 200), (990, 732), (30, 107)]:
    np.random.seed(seed)
    a = np.arange(n, dtype=float)[:, None].repeat(2, axis=1)  # a 2-D array, as split_data shuffles
    np.random.shuffle(a)
    print("shuffle", seed, n, *[int(v) for v in a[:, 0]])
for seed, n in [(0, 10), (7, 130)]:
    np.random.seed(seed)
    print("permutation", seed, n, *[int(v) for v in np.random.permutation(n)])
for seed, mx in [(0, 5), (3, 1000), (5, 2**31)]:
    np.random.seed(seed)
    print("interval", seed, mx, *[int(np.random.randint(0, mx + 1)) for _ in range(6)])
