"""Generates probit-tails.txt: probit tilted moments in the far tails at 60 digits (mpmath)."""
import mpmath as mp

mp.mp.dps = 60
lines = ["# Probit tilted moments in the far tails: q(f) ∝ N(f | m, v) Φ(y f), by the closed form of R&W eq. 3.58",
         "# evaluated in mpmath " + mp.__version__ + " at 60 digits (z = y m/√(1+v); log Z = log Φ(z),",
         "# mean = m + y v N(z)/(Φ(z)√(1+v)), var = v − v² N(z)/((1+v)Φ(z)) (z + N(z)/Φ(z))). Generated 2026-11-22",
         "# by probit-tails.py (next to this file): grid of z ∈ {±1e5, ±1e3, ±40, ±8, −6.5, −5.5} × v ∈ {0.01, 1, 100}, y = ±1.",
         "# y m v log_z mean variance"]
for y in (1, -1):
    for z in (-1e5, -1e3, -40, -8, -6.5, -5.5, 8, 40, 1e3, 1e5):
        for v in (0.01, 1, 100):
            v = mp.mpf(v)
            s = mp.sqrt(1 + v)
            m = mp.mpf(z) * s / y
            zz = mp.mpf(z)
            r = mp.npdf(zz) / mp.ncdf(zz)
            mean = m + y * v * r / s
            var = v - v**2 / (1 + v) * r * (zz + r)
            lines.append("%d %s %s %s %s %s" % (y, mp.nstr(m, 25), mp.nstr(v, 25), mp.nstr(mp.log(mp.ncdf(zz)), 25),
                                                mp.nstr(mean, 25), mp.nstr(var, 25)))
open("probit-tails.txt", "w").write("\n".join(lines) + "\n")
