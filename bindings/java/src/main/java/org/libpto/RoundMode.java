package org.libpto;

/** The rounding of {@link Pto#tcvt} (the C enum {@code pto_round_mode}). */
public enum RoundMode {
    /** The target's default: TRUNC for float to integer, RINT otherwise. */
    NONE(pto_round_mode.PTO_ROUND_NONE),
    /** To nearest, ties to even. */
    RINT(pto_round_mode.PTO_ROUND_RINT),
    /** To nearest, ties away from zero. */
    ROUND(pto_round_mode.PTO_ROUND_ROUND),
    /** Toward negative infinity. */
    FLOOR(pto_round_mode.PTO_ROUND_FLOOR),
    /** Toward positive infinity. */
    CEIL(pto_round_mode.PTO_ROUND_CEIL),
    /** Toward zero. */
    TRUNC(pto_round_mode.PTO_ROUND_TRUNC),
    /** To odd (FLOAT32 to FLOAT16 only). */
    ODD(pto_round_mode.PTO_ROUND_ODD);

    private final int code;

    RoundMode(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }
}
