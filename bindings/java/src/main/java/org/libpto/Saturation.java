package org.libpto;

/** The saturation of {@link Pto#tcvt} (the C enum {@code pto_saturation}). */
public enum Saturation {
    /** Out-of-range results as each profile documents. */
    OFF(pto_saturation.PTO_SAT_OFF),
    /** Out-of-range results clamp to the destination's range. */
    ON(pto_saturation.PTO_SAT_ON);

    private final int code;

    Saturation(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }
}
