package org.libpto;

/**
 * The comparison of {@link Pto#tcmp} and {@link Pto#tcmps} (the C enum {@code pto_cmp_mode};
 * IEEE 754: a NaN compares false except for NE, -0 equals +0).
 */
public enum CmpMode {
    /** src0 == src1. */
    EQ(pto_cmp_mode.PTO_CMP_EQ),
    /** src0 != src1. */
    NE(pto_cmp_mode.PTO_CMP_NE),
    /** src0 &lt; src1. */
    LT(pto_cmp_mode.PTO_CMP_LT),
    /** src0 &gt; src1. */
    GT(pto_cmp_mode.PTO_CMP_GT),
    /** src0 &gt;= src1. */
    GE(pto_cmp_mode.PTO_CMP_GE),
    /** src0 &lt;= src1. */
    LE(pto_cmp_mode.PTO_CMP_LE);

    private final int code;

    CmpMode(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }
}
