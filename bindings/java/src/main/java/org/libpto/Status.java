package org.libpto;

/** The outcome of a failed libpto call (the C {@code pto_status} values other than PTO_OK). */
public enum Status {
    // gen-enums:begin (the constants: tools/gen-enums.py)
    /** A required pointer or handle is NULL. */
    NULL_ARGUMENT(pto_status.PTO_ERR_NULL_ARGUMENT),
    /** Bad enum value, zero dimension, size overflow, wrong byte/element count. */
    INVALID_ARGUMENT(pto_status.PTO_ERR_INVALID_ARGUMENT),
    /** The operation does not support this element type (or this algorithm for it). */
    UNSUPPORTED_DTYPE(pto_status.PTO_ERR_UNSUPPORTED_DTYPE),
    /** Operands' element types differ where they must be equal. */
    DTYPE_MISMATCH(pto_status.PTO_ERR_DTYPE_MISMATCH),
    /** Valid regions violate the operation's runtime checks. */
    SHAPE_MISMATCH(pto_status.PTO_ERR_SHAPE_MISMATCH),
    /** A valid region larger than the tile. */
    OUT_OF_RANGE(pto_status.PTO_ERR_OUT_OF_RANGE),
    /** Operands share storage where the operation forbids it. */
    ALIASING(pto_status.PTO_ERR_ALIASING),
    OUT_OF_MEMORY(pto_status.PTO_ERR_OUT_OF_MEMORY),
    // gen-enums:end
    /** A status this version of the binding does not know. */
    UNKNOWN(-1);

    private final int code;

    Status(int code) {
        this.code = code;
    }

    /** The C value of the status. */
    public int code() {
        return code;
    }

    /** libpto's name of the status, e.g. {@code "PTO_ERR_SHAPE_MISMATCH"}. */
    public String cName() {
        return PtoNative.pto_status_string(code);
    }

    static Status of(int code) {
        for (Status s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return UNKNOWN;
    }
}
