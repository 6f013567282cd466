package org.libpto;

/** What {@link Pto#tfillpad} writes outside src's valid region (the C enum {@code pto_pad_value}). */
public enum PadValue {
    /** No value: tfillpad refuses it. */
    NULL(pto_pad_value.PTO_PAD_NULL),
    /** All bits zero. */
    ZERO(pto_pad_value.PTO_PAD_ZERO),
    /** +infinity for float dtypes, the largest value for integers. */
    MAX(pto_pad_value.PTO_PAD_MAX),
    /** -infinity for float dtypes, the smallest value for integers. */
    MIN(pto_pad_value.PTO_PAD_MIN);

    private final int code;

    PadValue(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }
}
