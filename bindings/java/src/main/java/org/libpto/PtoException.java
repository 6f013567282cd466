package org.libpto;

/**
 * Thrown by every failing libpto call. It carries the {@link Status} and
 * libpto's sentence naming the operation, the operand and the rule that
 * failed (the C {@code pto_last_error()}, read on the failing thread inside
 * the same native call).
 */
public class PtoException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Status status;
    private final String detail;

    /** Called from the JNI wrapper with the C status value. */
    PtoException(int status, String detail) {
        this(Status.of(status), detail);
    }

    PtoException(Status status, String detail) {
        super((status == Status.UNKNOWN ? "PTO_STATUS_UNKNOWN" : status.cName())
                + (detail == null || detail.isEmpty() ? "" : ": " + detail));
        this.status = status;
        this.detail = detail == null ? "" : detail;
    }

    /** What kind of failure this is. */
    public Status status() {
        return status;
    }

    /** libpto's explanation, e.g. "pto_tpow: base valid region 1x2 differs from dst valid region 2x4". */
    public String detail() {
        return detail;
    }
}
