package org.libpto;

/** A tile's element type (the C {@code pto_dtype}). */
public enum DType {
    // gen-enums:begin (the constants: tools/gen-enums.py)
    INT8(pto_dtype.PTO_INT8),
    UINT8(pto_dtype.PTO_UINT8),
    INT16(pto_dtype.PTO_INT16),
    UINT16(pto_dtype.PTO_UINT16),
    INT32(pto_dtype.PTO_INT32),
    UINT32(pto_dtype.PTO_UINT32),
    /** IEEE binary16. */
    FLOAT16(pto_dtype.PTO_FLOAT16),
    /** bfloat16: the upper half of an IEEE binary32. */
    BFLOAT16(pto_dtype.PTO_BFLOAT16),
    FLOAT32(pto_dtype.PTO_FLOAT32),
    INT64(pto_dtype.PTO_INT64),
    UINT64(pto_dtype.PTO_UINT64),
    FLOAT8_E4M3(pto_dtype.PTO_FLOAT8_E4M3),
    FLOAT8_E5M2(pto_dtype.PTO_FLOAT8_E5M2),
    HIFLOAT8(pto_dtype.PTO_HIFLOAT8),
    /** MX scale. */
    FLOAT8_E8M0(pto_dtype.PTO_FLOAT8_E8M0),
    /** Two values a byte. */
    FLOAT4_E2M1X2(pto_dtype.PTO_FLOAT4_E2M1X2),
    /** Two values a byte. */
    FLOAT4_E1M2X2(pto_dtype.PTO_FLOAT4_E1M2X2),
    /** Two values a byte. */
    INT4X2(pto_dtype.PTO_INT4X2),
    // gen-enums:end
    ;

    private final int code;

    DType(int code) {
        this.code = code;
    }

    /** The C value of the element type. */
    public int code() {
        return code;
    }

    /** Bytes per element. */
    public int size() {
        return (int) PtoNative.pto_dtype_size(code);
    }

    /** True for FLOAT16, BFLOAT16 and FLOAT32. */
    public boolean isFloatingPoint() {
        return this == FLOAT16 || this == BFLOAT16 || this == FLOAT32;
    }

    /** The name, e.g. {@code "FLOAT32"} (libpto's {@code pto_dtype_string}). */
    @Override
    public String toString() {
        return PtoNative.pto_dtype_string(code);
    }

    static DType of(int code) {
        for (DType d : values()) {
            if (d.code == code) {
                return d;
            }
        }
        throw new PtoException(Status.INVALID_ARGUMENT, "unknown dtype " + code);
    }
}
