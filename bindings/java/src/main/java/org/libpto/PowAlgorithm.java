package org.libpto;

/** The floating-point algorithm of {@link Pto#tpow}. */
public enum PowAlgorithm {
    /** Faster, lower precision (float32: within 8 ulp for normal results). */
    DEFAULT(pto_pow_algorithm.PTO_POW_DEFAULT),
    /** Correctly rounded (the same bits on every SIMD target); floating-point tiles only. */
    HIGH_PRECISION(pto_pow_algorithm.PTO_POW_HIGH_PRECISION);

    private final int code;

    PowAlgorithm(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }
}
