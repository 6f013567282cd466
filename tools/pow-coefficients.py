#!/usr/bin/env python3
"""Fits and measures the HIGH_PRECISION polynomials of src/kernels/pow-tables.h,
and chooses DEFAULT's 8-bucket log2 table (AVX2) and fits its tail.

    python3 tools/pow-coefficients.py      # needs mpmath (Debian python3-mpmath)

kLog2High: P(r) ~ log2(1 + r) / r on the reduced range of the 4-entry log2
table (computed here from kLogOff and kInvC), degree 10.
kExp2High: Q(r) ~ 2^r on [-1/8, 1/8], degree 6.
Both are Chebyshev fits (mpmath.chebyfit). Each coefficient is rounded to
double, and the relative error of the rounded polynomial is measured at
20001 points of its interval with 200-bit arithmetic; the printed bound is
the one quoted in pow-tables.h and used by MarkHardToRound.

DEFAULT, 8 buckets (kLogOffF8, kInvCF8, kLogCHiF8, kLogCLoF8, kLogTailF8):
buckets of 2^20 f32 bit patterns from an offset (searched in steps of
2^14 patterns); the bucket holding 1 has invc = 1, every other bucket the
invc of at most 8 significant bits that minimises max r^2 / |log2 z| over
the bucket (z*invc - 1 = r; y r^2 is the size of the f32 tail term of t where
|y log2 z| <= 125, so this is the weight of its rounding errors), subject to
r being exact in one f32 FMA (|r| below invc's last place where z < 1,
twice it where z >= 1: z*invc is then a multiple of an ulp that r has) and
to 1.55 |r| < |log2 invc| (pow-default-inl.h needs it); the offset with the
smallest worst weight wins. kLogTailF8: M(r) with log2(1 + r) = kC1Hi r -
r^2/2 + r M(r), degree 5, coefficients rounded to f32, absolute error
measured as above.
"""
import math
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


def f32(x):
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def f32_of_bits(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def hexf(v):
    """v as a C hex float literal without trailing zeros."""
    mantissa, exponent = float(v).hex().split("p")
    return mantissa.rstrip("0").rstrip(".") + "p" + exponent


def short_floats(lo, hi, max_bits=8):
    """(value, last place) of every number in (lo, hi) with at most max_bits significant bits."""
    out = set()
    for bits in range(1, max_bits + 1):
        for e in range(-2, 2):
            for m in range(2 ** (bits - 1), 2 ** bits):
                v = m * 2.0 ** (e - bits + 1)
                if lo < v < hi:
                    out.add((v, 2.0 ** (e - bits + 1)))
    return sorted(out)


def bucket_weight(off, i, invc, points):
    weight, rmax = 0.0, 0.0
    for j in range(points + 1):
        z = f32_of_bits(off + (i << 20) + ((1 << 20) - 1) * j // points)
        r = z * invc - 1
        rmax = max(rmax, abs(r))
        if z != 1.0:
            weight = max(weight, r * r / abs(math.log2(z)))
    return weight, rmax


def exact_in_one_fma(z0, z1, invc, last_place):
    if z0 < 1 and max(abs(z0 * invc - 1), abs(min(1.0, z1) * invc - 1)) >= last_place:
        return False
    if z1 >= 1 and max(abs(max(1.0, z0) * invc - 1), abs(z1 * invc - 1)) >= 2 * last_place:
        return False
    return True


def eight_bucket_table():
    candidates = short_floats(0.6, 1.5)
    best = None
    for off in range(0x3F300000, 0x3F3C0000, 0x4000):
        worst, table = 0.0, []
        for i in range(8):
            z0, z1 = f32_of_bits(off + (i << 20)), f32_of_bits(off + ((i + 1) << 20) - 1)
            if z0 <= 1 <= z1:
                table.append(1.0)
                worst = max(worst, bucket_weight(off, i, 1.0, 400)[0])
                continue
            pick = None
            for invc, last_place in candidates:
                if not exact_in_one_fma(z0, z1, invc, last_place):
                    continue
                weight, rmax = bucket_weight(off, i, invc, 60)
                if 1.55 * rmax < abs(math.log2(invc)) and (pick is None or weight < pick[0]):
                    pick = (weight, invc)
            if pick is None:
                break
            table.append(pick[1])
            worst = max(worst, bucket_weight(off, i, pick[1], 400)[0])
        if len(table) == 8 and (best is None or worst < best[0]):
            best = (worst, off, table)
    return best


def default_eight_buckets():
    worst, off, inv = eight_bucket_table()
    hi, lo = [], []
    rlo, rhi = mp.mpf(1), mp.mpf(-1)
    for i, invc in enumerate(inv):
        z0 = mp.mpf(f32_of_bits(off + (i << 20)))
        z1 = mp.mpf(f32_of_bits(off + ((i + 1) << 20) - 1))
        logc = -mp.log(invc, 2)
        hi.append(float(mp.nint(logc * 2**15) / 2**15))
        lo.append(f32(logc - mp.mpf(hi[-1])))
        rlo, rhi = min(rlo, z0 * invc - 1), max(rhi, z1 * invc - 1)
    print(f"kLogOffF8 = 0x{off:08X}: z in [{f32_of_bits(off):.6g}, {2 * f32_of_bits(off):.6g}), "
          f"max r^2 / |log2 z| = {worst:.4f}, r in [{float(rlo):.4f}, {float(rhi):.4f}]")
    for name, values in (("kInvCF8", inv), ("kLogCHiF8", hi), ("kLogCLoF8", lo)):
        print(f"  {name}: " + ", ".join(hexf(v) for v in values))
    c1 = mp.mpf(f32(1 / mp.log(2)))
    tail = lambda r: (mp.log(1 + r) / mp.log(2) - c1 * r + r * r / 2) / r if r != 0 else 1 / mp.log(2) - c1
    coefs = [f32(c) for c in reversed(mp.chebyfit(tail, [rlo, rhi], 6))]
    err = mp.mpf(0)
    for j in range(20001):
        r = rlo + (rhi - rlo) * mp.mpf(j) / 20000
        p = mp.mpf(0)
        for c in reversed(coefs):
            p = p * r + c
        err = max(err, abs(p - tail(r)))
    print(f"kLogTailF8: degree 5, absolute error 2^{float(mp.log(err, 2)):.2f}")
    print("    " + ", ".join(hexf(c) + "f" for c in coefs))


def main():
    default_eight_buckets()
    lo, hi = reduced_log_range()
    log2_over_r = lambda r: mp.log(1 + r) / mp.log(2) / r if r != 0 else 1 / mp.log(2)
    fit("kLog2High", log2_over_r, lo, hi, 10)
    fit("kExp2High", lambda r: mp.power(2, r), mp.mpf(-1) / 8, mp.mpf(1) / 8, 6)


if __name__ == "__main__":
    main()
