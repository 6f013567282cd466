#!/usr/bin/env python3
"""Fits and measures the HIGH_PRECISION polynomials of src/kernels/pow-tables.h.

    python3 tools/pow-coefficients.py      # needs mpmath (Debian python3-mpmath)

kLog2High: P(r) ~ log2(1 + r) / r on the reduced range of the 4-entry log2
table (computed here from kLogOff and kInvC), degree 10.
kExp2High: Q(r) ~ 2^r on [-1/8, 1/8], degree 6.
Both are Chebyshev fits (mpmath.chebyfit). Each coefficient is rounded to
double, and the relative error of the rounded polynomial is measured at
20001 points of its interval with 200-bit arithmetic; the printed bound is
the one quoted in pow-tables.h and used by MarkHardToRound.
"""
import struct

import mpmath as mp

mp.mp.prec = 200

LOG_OFF = 0x3FE5933333333333
INV_C = [float.fromhex(h) for h in ("0x1.5b7c9cp+0", "0x1.2914a8p+0", "0x1p+0", "0x1.a27e34p-1")]


def double_of_bits(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def reduced_log_range():
    lo, hi = mp.mpf(1), mp.mpf(-1)
    for i, invc in enumerate(INV_C):
        z0 = double_of_bits(LOG_OFF + i * 2**50)
        z1 = double_of_bits(LOG_OFF + (i + 1) * 2**50)
        lo = min(lo, mp.mpf(z0) * invc - 1)
        hi = max(hi, mp.mpf(z1) * invc - 1)
    return lo, hi


def max_relative_error(coefs, f, a, b, points=20000):
    worst = mp.mpf(0)
    for j in range(points + 1):
        r = a + (b - a) * mp.mpf(j) / points
        p = mp.mpf(0)
        for c in reversed(coefs):
            p = p * r + c
        worst = max(worst, abs(p / f(r) - 1))
    return worst


def fit(name, f, a, b, degree):
    poly = mp.chebyfit(f, [a, b], degree + 1)
    coefs = [float(c) for c in reversed(poly)]
    err = max_relative_error(coefs, f, a, b)
    print(f"{name}: degree {degree} on [{float(a):.6g}, {float(b):.6g}], "
          f"relative error 2^{float(mp.log(err, 2)):.2f}")
    for c in coefs:
        print(f"    {c.hex()},")


def main():
    lo, hi = reduced_log_range()
    log2_over_r = lambda r: mp.log(1 + r) / mp.log(2) / r if r != 0 else 1 / mp.log(2)
    fit("kLog2High", log2_over_r, lo, hi, 10)
    fit("kExp2High", lambda r: mp.power(2, r), mp.mpf(-1) / 8, mp.mpf(1) / 8, 6)


if __name__ == "__main__":
    main()
