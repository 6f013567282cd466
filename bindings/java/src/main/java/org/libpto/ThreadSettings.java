package org.libpto;

/**
 * The calling thread's settings that change later instructions: the cube modes (SETHF32MODE,
 * SETTF32MODE) and the fixpipe's quantisation configuration (SET_QUANT_SCALAR,
 * SET_QUANT_VECTOR: {@link Pto#setQuantScalar} and {@link Pto#setQuantVector}, generated from
 * src/settings.def, under the names this class has always given them).
 *
 * <p>libpto keeps them per OS thread, as the {@link Profile}: a setting applies to the calls the
 * same thread makes afterwards and to no other thread's (a new thread starts with both modes off
 * and no configuration). A platform thread is one OS thread; a virtual thread may move to another
 * carrier thread between two calls, so set and use these on platform threads.
 */
public final class ThreadSettings {
    private ThreadSettings() {}

    /**
     * SETHF32MODE ({@code pto_set_hf32_mode}): from now on ({@code enable}) or no longer, the
     * FLOAT32 inputs a and b of the matrix multiplies (tmatmul, tmatmul_acc, tmatmul_bias, tgemv,
     * tgemv_acc, tgemv_bias) under {@link Profile#A2A3} are rounded to HF32 (e8m11) first, to
     * nearest with ties by {@code round}: {@link RoundMode#ROUND} (away from zero, the pages'
     * default) or {@link RoundMode#RINT} (to even). Under HOST and A5 it changes nothing.
     *
     * @throws PtoException INVALID_ARGUMENT for another round mode (the mode is then kept)
     */
    public static void setHf32Mode(boolean enable, RoundMode round) {
        PtoNative.pto_set_hf32_mode(enable ? 1 : 0, code(round, "setHf32Mode"));
    }

    /** Whether this thread's HF32 mode is on (false until set). */
    public static boolean hf32Mode() {
        return PtoNative.pto_hf32_mode(new int[1]) == 1;
    }

    /** This thread's HF32 mode's round mode ({@link RoundMode#ROUND} until set). */
    public static RoundMode hf32Round() {
        int[] round = new int[1];
        PtoNative.pto_hf32_mode(round);
        return roundMode(round[0]);
    }

    /**
     * SETTF32MODE ({@code pto_set_tf32_mode}): as {@link #setHf32Mode}, for {@link Profile#A5}'s
     * TF32 (e8m10); under HOST and A2A3 it changes nothing.
     *
     * @throws PtoException INVALID_ARGUMENT for another round mode (the mode is then kept)
     */
    public static void setTf32Mode(boolean enable, RoundMode round) {
        PtoNative.pto_set_tf32_mode(enable ? 1 : 0, code(round, "setTf32Mode"));
    }

    /** Whether this thread's TF32 mode is on (false until set). */
    public static boolean tf32Mode() {
        return PtoNative.pto_tf32_mode(new int[1]) == 1;
    }

    /** This thread's TF32 mode's round mode ({@link RoundMode#ROUND} until set). */
    public static RoundMode tf32Round() {
        int[] round = new int[1];
        PtoNative.pto_tf32_mode(round);
        return roundMode(round[0]);
    }

    /**
     * SET_QUANT_SCALAR ({@code pto_set_quant_scalar}): this thread's fixpipe configuration becomes
     * one scalar word for every column, from {@code scale} and the output dtype it is meant for
     * (INT8, UINT8, INT16, FLOAT16, BFLOAT16, HIFLOAT8 or FLOAT8_E4M3). {@link Pto#tmovFp},
     * {@link Pto#textractFp} and {@link Pto#tinsertFp} with a null fp on this thread use it.
     *
     * @throws PtoException UNSUPPORTED_DTYPE for another dtype (the configuration is then kept)
     */
    public static void setQuantScalar(float scale, DType dtype) {
        Pto.setQuantScalar(scale, dtype);
    }

    /**
     * SET_QUANT_VECTOR ({@code pto_set_quant_vector}): this thread's fixpipe configuration
     * becomes a copy of fp's row 0, one word per column (a {@link Location#SCALING} tile of one
     * row: UINT64, INT64, FLOAT16, BFLOAT16 or FLOAT32); later writes to fp are not seen.
     *
     * @throws PtoException NULL_ARGUMENT for a null fp, INVALID_ARGUMENT for a tile not of
     *     SCALING, UNSUPPORTED_DTYPE for another dtype (the configuration is then kept)
     */
    public static void setQuantVector(Tile fp) {
        Pto.setQuantVector(fp);
    }

    private static int code(RoundMode round, String op) {
        if (round == null) {
            throw new PtoException(Status.INVALID_ARGUMENT, "ThreadSettings." + op + ": round is null");
        }
        return round.code();
    }

    private static RoundMode roundMode(int code) {
        for (RoundMode r : RoundMode.values()) {
            if (r.code() == code) {
                return r;
            }
        }
        throw new PtoException(Status.INVALID_ARGUMENT, "unknown round mode " + code);
    }
}
