/* The elementwise instructions: the Binary, Unary, Scalar and Fill rows
 * (their rules from the operations.def row and profile, values against the
 * elementwise reference), tprelu, tpartadd and tcolexpanddiv (values
 * against the scalar reference), trsqrt (within 1 ulp), tpow and tpows
 * (statuses and untouched operands). */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "fuzz_api.h"

/* trsqrt: exact at the IEEE edges, within 1 ulp of the exact result
 * elsewhere (1/sqrt in double is far closer than that); under A5 the NPU's
 * sequence, 1 / sqrt rounded, exactly. */
static void check_rsqrt(const pto_tile *dst, const snapshot *src) {
    const pto_dtype d = pto_tile_dtype(dst);
    const unsigned char *got = pto_tile_data((pto_tile *)dst);
    const uint32_t cols = pto_tile_cols(dst);
    for (uint32_t i = 0; i < pto_tile_valid_rows(dst); i++) {
        for (uint32_t j = 0; j < pto_tile_valid_cols(dst); j++) {
            if (g_profile == PTO_PROFILE_A5) {
                const uint64_t x = ref_load(d, src->data, (size_t)i * src->cols + j);
                const uint64_t want = ref_npu_rsqrt(d, x), g = ref_load(d, got, (size_t)i * cols + j);
                CHECK(want == g || (ref_is_nan(d, want) && ref_is_nan(d, g)),
                      "pto_trsqrt under A5: dtype %d rsqrt(0x%" PRIx64 ") gave 0x%" PRIx64 ", want 0x%" PRIx64, (int)d, x, g, want);
                continue;
            }
            const double x = ref_to_double(d, ref_load(d, src->data, (size_t)i * src->cols + j));
            const double r = x == 0 ? copysign(INFINITY, x) : 1.0 / sqrt(x);
            const uint64_t g_bits = ref_load(d, got, (size_t)i * cols + j);
            const double g = ref_to_double(d, g_bits);
            if (isnan(r) || isinf(r) || r == 0 || isinf(g) || isnan(g)) {
                CHECK((isnan(r) && isnan(g)) || r == g,
                      "pto_trsqrt: dtype %d rsqrt(%a) gave %a, want %a", (int)d, x, g, r);
                continue;
            }
            CHECK(ref_ulp_error(d, g_bits, r) <= 1,
                  "pto_trsqrt: dtype %d rsqrt(%a) gave %a, more than 1 ulp from %a", (int)d, x,
                  g, r);
        }
    }
}


/* The binary operations (tprelu, tpartadd, tcolexpanddiv) share the
 * snapshot / call / compare sequence. */
void fuzz_binary(reader *r, state *st, op_id op) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *a = take_tile(r, st);
    const pto_tile *b = take_tile(r, st);
    pto_tile *tmp = op == OP_TPRELU ? take_tile(r, st) : NULL;
    const char *fn = op_name(op);

    pto_status want = PTO_OK;
    const pto_tile *const typed[3] = {dst, a, b};
    int partadd_a_full = 0;
    const int a2a3_prelu = op == OP_TPRELU && g_profile == PTO_PROFILE_A2A3;
    if (dst == NULL || a == NULL || b == NULL || (a2a3_prelu && tmp == NULL)) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else if (op == OP_TCOLEXPANDDIV && !op_accepts(OP_TCOLEXPANDDIV, g_profile, pto_tile_dtype(dst))) {
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    } else if (op == OP_TPARTADD && !profile_accepts_dtype(0, pto_tile_dtype(dst))) {
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    } else if (op == OP_TPRELU && !op_accepts(OP_TPRELU, g_profile, pto_tile_dtype(dst))) {
        want = PTO_ERR_UNSUPPORTED_DTYPE; /* the NPUs' tprelu: FLOAT16 and FLOAT32; HOST's nine */
    } else if (!dtypes_equal(typed, 3)) {
        want = PTO_ERR_DTYPE_MISMATCH;
    } else if (op == OP_TPRELU && tmp != NULL &&
               (a2a3_prelu ? pto_tile_dtype(tmp) != PTO_UINT8 : pto_tile_dtype(tmp) > PTO_FLOAT32)) {
        /* tmp: A2A3's UINT8 mask; elsewhere any of the nine (unused) */
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    } else if (tmp != NULL && (tmp == dst || tmp == a || tmp == b)) {
        want = PTO_ERR_ALIASING;
    } else if (op == OP_TCOLEXPANDDIV ? clashes_with_dst(a, dst) || clashes_with_dst(b, dst)
                                      : row_order_clash(a, dst) || row_order_clash(b, dst)) {
        want = PTO_ERR_ALIASING;
    } else if (a2a3_prelu && (a2a3_clash(a, dst) || a2a3_clash(b, dst) || a2a3_clash(b, a) ||
                              a2a3_clash(tmp, dst) || a2a3_clash(tmp, a) || a2a3_clash(tmp, b))) {
        want = PTO_ERR_ALIASING;
    } else if (op == OP_TPRELU) {
        if (!same_region(a, dst) || !same_region(b, dst) ||
            (a2a3_prelu && (pto_tile_valid_rows(tmp) != pto_tile_valid_rows(dst) ||
                            (uint64_t)pto_tile_rows(tmp) < (uint64_t)pto_tile_valid_rows(dst) + 1 ||
                            pto_tile_valid_cols(tmp) < pto_tile_valid_cols(dst) / 8 +
                                                           (pto_tile_valid_cols(dst) % 8 != 0))))
            want = PTO_ERR_SHAPE_MISMATCH;
    } else if (op == OP_TCOLEXPANDDIV) {
        if (!same_region(a, dst) || pto_tile_valid_rows(b) < 1 ||
            pto_tile_valid_cols(b) < pto_tile_valid_cols(dst))
            want = PTO_ERR_SHAPE_MISMATCH;
    } else {
        partadd_a_full = same_region(a, dst) && region_fits(b, dst);
        const int b_full = same_region(b, dst) && region_fits(a, dst);
        if (!partadd_a_full && !b_full) want = PTO_ERR_SHAPE_MISMATCH;
    }

    checked_call c;
    call_begin(&c, fn, want, (const pto_tile *const[]){dst, a, b, tmp}, 4);
    pto_status got;
    switch (op) {
    case OP_TPRELU: got = pto_tprelu(dst, a, b, tmp); break;
    case OP_TPARTADD: got = pto_tpartadd(dst, a, b); break;
    default: got = pto_tcolexpanddiv(dst, a, b); break;
    }
    if (call_check(&c, got, kWritesValidRegion)) {
        const snapshot *sd = call_before(&c, dst);
        const snapshot *sa = call_before(&c, a);
        const snapshot *sb = call_before(&c, b);
        unsigned char *want_bytes;
        if (op == OP_TPRELU) {
            want_bytes = expected_from(sd, ref_prelu, sa, sb, 0, NULL);
        } else if (op == OP_TCOLEXPANDDIV) {
            want_bytes = expected_from(sd, ref_tdiv, sa, sb, 1, NULL);
        } else {
            /* Sum where both are valid, a copy of the full one elsewhere. */
            const snapshot *full = partadd_a_full ? sa : sb;
            const snapshot *part = partadd_a_full ? sb : sa;
            want_bytes = expected_from(sd, ref_add, full, part, 0, part);
        }
        check_values(dst, want_bytes, fn);
        free(want_bytes);
    }
    call_end(&c);
}

void fuzz_rsqrt(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    pto_status want = PTO_OK;
    if (dst == NULL || src == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (!is_f32_or_f16(pto_tile_dtype(dst)))
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    else if (pto_tile_dtype(src) != pto_tile_dtype(dst))
        want = PTO_ERR_DTYPE_MISMATCH;
    else
        want = source_rules(src, dst);
    checked_call c;
    call_begin(&c, "pto_trsqrt", want, (const pto_tile *const[]){dst, src}, 2);
    if (call_check(&c, pto_trsqrt(dst, src), kWritesValidRegion)) check_rsqrt(dst, call_before(&c, src));
    call_end(&c);
}

/* tpow: statuses, untouched operands and the region rule; its values are
 * checked by the core suite against a reference too costly to run here. */
void fuzz_pow(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *base = take_tile(r, st);
    const pto_tile *ex = take_tile(r, st);
    pto_tile *tmp = take_tile(r, st);
    const pto_pow_algorithm algo = take_algo(r);
    pto_status want = PTO_OK;
    const pto_tile *const typed[4] = {dst, base, ex, tmp};
    if (dst == NULL || base == NULL || ex == NULL || tmp == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if ((int)algo < 0 || (int)algo > 1)
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (!profile_accepts_dtype(1, pto_tile_dtype(dst)) ||
             (g_profile != PTO_PROFILE_A2A3 && algo == PTO_POW_HIGH_PRECISION &&
              !ref_is_float(pto_tile_dtype(dst))))
        want = PTO_ERR_UNSUPPORTED_DTYPE; /* A2A3 ignores the algorithm */
    else if (!dtypes_equal(typed, 4))
        want = PTO_ERR_DTYPE_MISMATCH;
    else if (tmp == dst || tmp == base || tmp == ex || row_order_clash(base, dst) ||
             row_order_clash(ex, dst))
        want = PTO_ERR_ALIASING;
    else if (!same_region(base, dst) || !same_region(ex, dst) || !same_region(tmp, dst))
        want = PTO_ERR_SHAPE_MISMATCH;
    checked_call c;
    call_begin(&c, "pto_tpow", want, typed, 4);
    call_check(&c, pto_tpow(dst, base, ex, tmp, algo), kWritesValidRegion);
    call_end(&c);
}

/* tpows: tpow's rules with a scalar exponent and no tmp (NULL, algo, dtype
 * by algorithm and profile, base's dtype, the scalar, aliasing, region);
 * nothing written on a refusal, nothing outside dst's valid region. Its
 * values (tpow's with the exponent in every element) are test_tpows's. */
void fuzz_tpows(reader *r, state *st) {
    static const double kExponents[] = {0, 1, 2, 3, -1, -2, 0.5, -0.5, 2.5, 1e10, -1e10,
                                        INFINITY, -INFINITY, NAN, 128, 65536};
    pto_tile *dst = take_tile(r, st);
    const pto_tile *base = take_tile(r, st);
    const pto_pow_algorithm algo = take_algo(r);
    const double exp = kExponents[take(r) % (sizeof kExponents / sizeof kExponents[0])];
    pto_status want = PTO_OK;
    if (dst == NULL || base == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if ((int)algo < 0 || (int)algo > 1)
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (!profile_accepts_dtype(1, pto_tile_dtype(dst)) ||
             (g_profile != PTO_PROFILE_A2A3 && algo == PTO_POW_HIGH_PRECISION &&
              !ref_is_float(pto_tile_dtype(dst))))
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    else if (pto_tile_dtype(base) != pto_tile_dtype(dst))
        want = PTO_ERR_DTYPE_MISMATCH;
    else if (!scalar_is_value_of(pto_tile_dtype(dst), exp))
        want = PTO_ERR_INVALID_ARGUMENT;
    else
        want = source_rules(base, dst);
    checked_call c;
    call_begin(&c, "pto_tpows", want, (const pto_tile *const[]){dst, base}, 2);
    call_check(&c, pto_tpows(dst, base, exp, algo), kWritesValidRegion);
    call_end(&c);
}

static uint64_t npu_rem_corrected(pto_dtype d, uint64_t a, uint64_t b) { return ref_npu_rem(d, a, b, true); }
static uint64_t npu_rem_plain(pto_dtype d, uint64_t a, uint64_t b) { return ref_npu_rem(d, a, b, false); }

/* A5's 64-bit shifts take the count mod 64 (pto_c.h pto_tshl). */
static uint64_t a5_shl64(pto_dtype d, uint64_t a, uint64_t b) { return op_binary_reference(OP_TSHL)(d, a, b & 63); }
static uint64_t a5_shr64(pto_dtype d, uint64_t a, uint64_t b) { return op_binary_reference(OP_TSHR)(d, a, b & 63); }

/* The element rule of a family row under the profile: the contract's single
 * rounding, or, under A2A3 and A5, the NPU sequence of the rows that have
 * one (docs/profiles.md, "Compound instructions under A2A3 and A5"). */
static element_rule elementwise_rule(op_id op, pto_dtype d, bool in_place) {
    const bool npu_float = g_profile != PTO_PROFILE_HOST && (d == PTO_FLOAT32 || d == PTO_FLOAT16);
    if (npu_float && op == OP_TREM) return npu_rem_corrected;
    if (npu_float && op == OP_TREMS) return g_profile == PTO_PROFILE_A2A3 ? npu_rem_corrected : npu_rem_plain;
    if (npu_float && (op == OP_TFMOD || op == OP_TFMODS)) return ref_npu_fmod;
    if (npu_float && op == OP_TDIVS && in_place && g_profile == PTO_PROFILE_A2A3) return ref_npu_divs_in_place;
    if (g_profile == PTO_PROFILE_A5 && (d == PTO_INT64 || d == PTO_UINT64)) {
        if (op == OP_TSHL || op == OP_TSHLS) return a5_shl64;
        if (op == OP_TSHR || op == OP_TSHRS) return a5_shr64;
    }
    return op_binary_reference(op);
}

/* The bitwise rows' no-overlap rules (pto_c.h): TXOR on A2A3 (dst apart
 * from both sources), TANDS and TORS on A2A3 and A5, TXORS on A2A3. */
static int row_apart_clash(op_id op, const pto_tile *dst, const pto_tile *a, const pto_tile *b) {
    const bool a2a3 = g_profile == PTO_PROFILE_A2A3, npu = g_profile != PTO_PROFILE_HOST;
    if (op == OP_TXOR && a2a3) return a2a3_clash(a, dst) || a2a3_clash(b, dst);
    if ((op == OP_TANDS || op == OP_TORS) && npu) return a2a3_clash(a, dst);
    if (op == OP_TXORS && a2a3) return a2a3_clash(a, dst);
    return 0;
}

/* An operation of the Binary, Unary, Scalar or Fill family: the family's rules in the
 * contract's order, with the dtypes of its operations.def row under the
 * profile, and its elementwise reference. A Unary row's b is a (unused). */
void fuzz_elementwise(reader *r, state *st, op_id op) {
    const bool fill = op_row(op)->family == OP_FAMILY_FILL; /* no source: dst stands in */
    const bool unary = op_row(op)->source_count == 1;
    const bool scalar_row = op_row(op)->family == OP_FAMILY_SCALAR || fill;
    pto_tile *dst = take_tile(r, st);
    const pto_tile *a = fill ? dst : take_tile(r, st);
    const pto_tile *b = unary || fill ? a : take_tile(r, st);
    const char *fn = op_name(op);
    /* A Scalar row's scalar: any 64 bits, or a small integer (which every
     * dtype holds) more often. */
    double scalar = 0;
    if (scalar_row) {
        if (take(r) & 1) {
            const uint64_t bits = (uint64_t)take_u32(r) << 32 | take_u32(r);
            memcpy(&scalar, &bits, sizeof scalar);
        } else {
            scalar = (double)(int8_t)take(r);
        }
    }

    pto_status want = leading_rules(op, dst, a, b);
    if (want == PTO_OK) {
        if (scalar_row && !scalar_is_value_of(pto_tile_dtype(dst), scalar))
            want = PTO_ERR_INVALID_ARGUMENT;
        else if (row_order_clash(a, dst) || row_order_clash(b, dst) ||
                 (op == OP_TRECIP && g_profile == PTO_PROFILE_A2A3 && a2a3_clash(a, dst)) ||
                 row_apart_clash(op, dst, a, b))
            want = PTO_ERR_ALIASING;
        else if ((op == OP_TSHLS || op == OP_TSHRS) && g_profile != PTO_PROFILE_HOST && scalar < 0)
            want = PTO_ERR_INVALID_ARGUMENT; /* the pages: a zero or positive count */
        else if (!same_region(a, dst) || !same_region(b, dst))
            want = PTO_ERR_SHAPE_MISMATCH;
    }

    checked_call c;
    call_begin(&c, fn, want, (const pto_tile *const[]){dst, a, b}, fill ? 1 : unary ? 2 : 3);
    const pto_status got =
        scalar_row ? op_scalar_function(op)(dst, a, scalar)
                   : op_call(op, PTO_POW_DEFAULT, dst, (pto_tile *)a, (pto_tile *)b, NULL);
    if (call_check(&c, got, kWritesValidRegion)) {
        const snapshot *sd = call_before(&c, dst);
        /* A Scalar row's b: row 0 of the scalar, rounded once to the dtype. */
        snapshot scalar_row0 = {0};
        unsigned char *scalar_bytes = NULL;
        if (scalar_row) {
            const pto_dtype d = pto_tile_dtype(dst);
            const uint64_t bits = ref_is_float(d) ? ref_from_double(d, scalar)
                                                  : ref_int_wrap(d, (uint64_t)(int64_t)scalar);
            scalar_bytes = malloc((size_t)pto_tile_valid_cols(dst) * 4 + 4);
            CHECK(scalar_bytes != NULL, "out of memory in the harness");
            for (uint32_t j = 0; j < pto_tile_valid_cols(dst); ++j) ref_store(d, scalar_bytes, j, bits);
            scalar_row0.dtype = d;
            scalar_row0.cols = pto_tile_valid_cols(dst);
            scalar_row0.data = scalar_bytes;
        }
        /* Accepted, so a source that shares dst's storage is placed exactly on it. */
        const bool in_place = pto_tile_data(dst) == pto_tile_data((pto_tile *)a);
        unsigned char *want_bytes = expected_from(sd, elementwise_rule(op, sd->dtype, in_place), call_before(&c, a),
                                                  scalar_row ? &scalar_row0 : call_before(&c, b),
                                                  scalar_row, NULL);
        check_values(dst, want_bytes, fn);
        free(want_bytes);
        free(scalar_bytes);
    }
    call_end(&c);
}
