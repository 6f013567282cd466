/* What only the 8-byte integers have, beside the generic loops that run
 * INT64 and UINT64 wherever a row's list takes them (tests/test_ops.c counts
 * those calls, test_reduce, test_broadcast, test_compare, test_identity,
 * test_profiles, test_tiles): the two are distinct dtypes of one size;
 * hand-computed results where 64 bits wrap or order differently from
 * narrower integers; scalars, which the C API passes as doubles, refused
 * outside the values a double holds, and the extremes it holds kept; tcvt's
 * pairs with an 8-byte side; gather and scatter indices of 4 bytes; the rows
 * tested apart under each profile; programs with !pto.ptr<i64> /
 * !pto.ptr<ui64> (views, vec tiles, tload / tstore / tmov, load_scalar /
 * store_scalar of every bit pattern, a tload's zero pad and the pads an
 * 8-byte tile cannot take, an i64 scalar no double holds). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype k64[] = {PTO_INT64, PTO_UINT64};
static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};

/* A tile of dt filled by the shared generator, with a valid region. */
static pto_tile *filled(pto_dtype dt, uint32_t rows, uint32_t cols, uint32_t vr, uint32_t vc, rng *r) {
    pto_tile *t = tile_new(dt, rows, cols, vr, vc);
    tile_fill(t, r, GEN_ANY);
    return t;
}

/* INT64 and UINT64 are two dtypes of one size: no move between them, nor
 * to a 4-byte dtype, the sentence naming INT64. */
static void test_two_dtypes_of_one_size(void **state) {
    (void)state;
    pto_tile *i64 = tile_new(PTO_INT64, 2, 8, 2, 8), *u64 = tile_new(PTO_UINT64, 2, 8, 2, 8);
    pto_tile *f32 = tile_new(PTO_FLOAT32, 2, 16, 2, 16);
    assert_int_equal(pto_tmov(i64, u64), PTO_ERR_DTYPE_MISMATCH);
    assert_int_equal(pto_tmov(u64, i64), PTO_ERR_DTYPE_MISMATCH);
    assert_int_equal(pto_tmov(f32, i64), PTO_ERR_DTYPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "INT64"));
    TILES_DESTROY(i64, u64, f32);
}

/* ---- where 64 bits wrap or order otherwise ---- */

/* Results written out by hand (not by the references): the quotient and
 * remainder of INT64_MIN by -1, division and remainder by zero, the
 * remainder's sign, unsigned order and division above 2^63, wrapping
 * sums and products. Each is checked against the reference too. */
typedef struct {
    op_id op;
    pto_dtype dt;
    uint64_t a, b, want;
} edge_case;

#define I64(v) ((uint64_t)(int64_t)(v))
static const edge_case kEdgeCases[] = {
    {OP_TDIV, PTO_INT64, I64(INT64_MIN), I64(-1), I64(INT64_MIN)},
    {OP_TDIV, PTO_INT64, I64(INT64_MIN), 1, I64(INT64_MIN)},
    {OP_TDIV, PTO_INT64, I64(-7), 2, I64(-3)},
    {OP_TDIV, PTO_INT64, 12345, 0, UINT64_MAX},
    {OP_TDIV, PTO_UINT64, UINT64_MAX, 2, UINT64_C(0x7FFFFFFFFFFFFFFF)},
    {OP_TDIV, PTO_UINT64, UINT64_C(0x8000000000000000), UINT64_C(0x8000000000000001), 0},
    {OP_TDIV, PTO_UINT64, 5, 0, UINT64_MAX},
    {OP_TREM, PTO_INT64, I64(INT64_MIN), I64(-1), 0},
    {OP_TREM, PTO_INT64, I64(-7), 2, 1},
    {OP_TREM, PTO_INT64, 7, I64(-2), I64(-1)},
    {OP_TREM, PTO_INT64, I64(-5), 0, I64(-5)},
    {OP_TREM, PTO_INT64, I64(INT64_MIN), 3, 1}, /* -2^63 = -3074457345618258603 * 3 + 1 */
    {OP_TREM, PTO_UINT64, UINT64_MAX, UINT64_C(0x8000000000000000), UINT64_C(0x7FFFFFFFFFFFFFFF)},
    {OP_TREM, PTO_UINT64, 9, 0, 9},
    {OP_TMAX, PTO_INT64, I64(-1), 1, 1},
    {OP_TMAX, PTO_UINT64, UINT64_MAX, 1, UINT64_MAX},
    {OP_TMIN, PTO_INT64, I64(INT64_MIN), INT64_MAX, I64(INT64_MIN)},
    {OP_TMIN, PTO_UINT64, UINT64_C(0x8000000000000000), 1, 1},
    {OP_TADD, PTO_INT64, INT64_MAX, 1, I64(INT64_MIN)},
    {OP_TADD, PTO_UINT64, UINT64_MAX, 2, 1},
    {OP_TSUB, PTO_UINT64, 0, 1, UINT64_MAX},
    {OP_TMUL, PTO_UINT64, UINT64_C(0x100000000), UINT64_C(0x100000000), 0},
    {OP_TMUL, PTO_INT64, UINT64_C(0x100000001), UINT64_C(0xFFFFFFFF), UINT64_C(0xFFFFFFFFFFFFFFFF)},
};

static void edge_cases_on(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index;
    for (size_t k = 0; k < COUNT(kEdgeCases); ++k) {
        const edge_case *c = &kEdgeCases[k];
        if (op_binary_reference(c->op)(c->dt, c->a, c->b) != c->want)
            fail_msg("ref_%s %s disagrees with case %zu", op_mnemonic(c->op), pto_dtype_string(c->dt), k);
        pto_tile *a = tile_new(c->dt, 1, 3, 1, 3), *b = tile_new(c->dt, 1, 3, 1, 3);
        pto_tile *dst = tile_new(c->dt, 1, 3, 1, 3);
        for (uint32_t j = 0; j < 3; ++j) tile_put(a, 0, j, c->a), tile_put(b, 0, j, c->b);
        assert_int_equal(op_binary_function(c->op)(dst, a, b), PTO_OK);
        if (tile_get(dst, 0, 1) != c->want)
            fail_msg("%s %s on %s: 0x%" PRIx64 ", 0x%" PRIx64 " gives 0x%" PRIx64 ", want 0x%" PRIx64,
                     op_name(c->op), pto_dtype_string(c->dt), target, c->a, c->b, tile_get(dst, 0, 1), c->want);
        TILES_DESTROY(a, b, dst);
    }
}

static void test_edge_cases(void **state) {
    (void)state;
    for_each_target("int64 results written out", edge_cases_on, NULL);
}

/* ---- scalars: doubles ---- */

/* The extremes a double gives exactly, which every Scalar and Fill row
 * takes (texpands writes them bit for bit): INT64_MIN, 2^63 - 1024 and
 * 2^64 - 2048, the largest doubles below 2^63 and 2^64. */
static const double kInt64Extremes[] = {-0x1p63, 9223372036854774784.0, 0x1p53, -0x1p53};
static const double kUint64Extremes[] = {0x1p63, 18446744073709549568.0, 0x1p53, 0};
/* Scalars that are no value of the dtype: out of range or not integers. */
static const double kInt64Refused[] = {0x1p63, -0x1p63 - 4096.0, 0.5, -1.5, NAN, INFINITY};
static const double kUint64Refused[] = {-1, 0x1p64, 0.5, NAN, -INFINITY};

static uint64_t scalar_bits(pto_dtype dt, double s) {
    return dt == PTO_INT64 ? (uint64_t)(int64_t)s : (uint64_t)s;
}

/* Every Scalar and Fill row whose HOST list takes INT64 or UINT64 refuses
 * the scalars above with PTO_ERR_INVALID_ARGUMENT, dst untouched; tcmps
 * too; texpands keeps the extremes bit for bit. */
static void test_scalar_range(void **state) {
    (void)state;
    rng r = {0x5C};
    size_t rows = 0;
    for (size_t d = 0; d < COUNT(k64); ++d) {
        const pto_dtype dt = k64[d];
        const double *bad = dt == PTO_INT64 ? kInt64Refused : kUint64Refused;
        const size_t bad_count = dt == PTO_INT64 ? COUNT(kInt64Refused) : COUNT(kUint64Refused);
        for (int op = 0; op < OP_COUNT; ++op) {
            const op_scalar_call call = op_scalar_function((op_id)op);
            if (call == NULL || !op_accepts((op_id)op, PTO_PROFILE_HOST, dt)) continue;
            ++rows;
            for (size_t k = 0; k < bad_count; ++k) {
                pto_tile *a = filled(dt, 2, 4, 2, 4, &r), *out = filled(dt, 2, 4, 2, 4, &r);
                uint64_t *before = tile_snapshot(out);
                assert_int_equal(call(out, a, bad[k]), PTO_ERR_INVALID_ARGUMENT);
                assert_non_null(strstr(pto_last_error(), "is not a value of"));
                assert_tile_unchanged(out, before, "dst of a refused scalar");
                free(before);
                TILES_DESTROY(a, out);
            }
        }
        pto_tile *a = filled(dt, 1, 8, 1, 8, &r), *mask = tile_new(PTO_UINT8, 1, 8, 1, 1);
        assert_int_equal(pto_tcmps(mask, a, bad[0], PTO_CMP_EQ), PTO_ERR_INVALID_ARGUMENT);
        const double *extremes = dt == PTO_INT64 ? kInt64Extremes : kUint64Extremes;
        const size_t extreme_count = dt == PTO_INT64 ? COUNT(kInt64Extremes) : COUNT(kUint64Extremes);
        for (size_t k = 0; k < extreme_count; ++k) {
            assert_int_equal(pto_texpands(a, extremes[k]), PTO_OK);
            for (uint32_t j = 0; j < 8; ++j) assert_int_equal(tile_get(a, 0, j), scalar_bits(dt, extremes[k]));
        }
        TILES_DESTROY(a, mask);
    }
    print_message("[int64] refused scalars: %zu (row, dtype) pairs\n", rows);
    assert_true(rows >= 18);
}

/* ---- the rows tested apart, under each profile ---- */

/* tcmp, tcmps, tsel and tsels on the 8-byte dtypes: accepted where the
 * profile's list takes the dtype (tsel, bound by hand: all but A2A3),
 * refused without writing dst elsewhere. Their values: test_compare. */
static void test_selects_by_profile(void **state) {
    (void)state;
    rng r = {0xC64};
    for (size_t p = 0; p < COUNT(kProfiles); ++p)
        for (size_t d = 0; d < COUNT(k64); ++d) {
            const pto_profile profile = kProfiles[p];
            const pto_dtype dt = k64[d];
            pto_tile *a = filled(dt, 2, 8, 2, 8, &r), *b = filled(dt, 2, 8, 2, 8, &r);
            pto_tile *mask = filled(PTO_UINT8, 2, 1, 2, 1, &r), *out = filled(dt, 2, 8, 2, 8, &r);
            pto_tile *tmp = tile_new(PTO_UINT32, 1, 8, 1, 8);
            uint64_t *mask_before = tile_snapshot(mask), *out_before = tile_snapshot(out);
            assert_int_equal(pto_set_profile(profile), PTO_OK);
            const pto_status st[4] = {pto_tcmp(mask, a, b, PTO_CMP_LT), pto_tcmps(mask, a, 3, PTO_CMP_GE),
                                      pto_tsel(out, mask, a, b, tmp), pto_tsels(out, mask, a, tmp, 3)};
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
            const bool accepted[4] = {op_accepts(OP_TCMP, profile, dt), op_accepts(OP_TCMPS, profile, dt),
                                      profile != PTO_PROFILE_A2A3, op_accepts(OP_TSELS, profile, dt)};
            for (int k = 0; k < 4; ++k)
                assert_int_equal(st[k], accepted[k] ? PTO_OK : PTO_ERR_UNSUPPORTED_DTYPE);
            if (!accepted[0] && !accepted[1]) assert_tile_unchanged(mask, mask_before, "refused compares");
            if (!accepted[2] && !accepted[3]) assert_tile_unchanged(out, out_before, "refused selects");
            free(mask_before), free(out_before);
            TILES_DESTROY(a, b, mask, out, tmp);
        }
}

/* ---- tcvt ---- */

/* The pairs with an 8-byte side, on every profile (TCVT's table: FP32 ->
 * I64, I32 -> I64, I64 -> FP32, I64 -> I32, A2A3 and A5 alike). */
static bool pair64(pto_dtype src, pto_dtype dst) {
    return (src == PTO_FLOAT32 && dst == PTO_INT64) || (src == PTO_INT32 && dst == PTO_INT64) ||
           (src == PTO_INT64 && (dst == PTO_FLOAT32 || dst == PTO_INT32));
}

/* m (< 2^64) rounded to float by the mode, negative deciding the directed
 * modes, as the float's bits: integer arithmetic on the magnitude. */
static uint32_t u64_to_f32_bits(uint64_t m, bool negative, pto_round_mode mode) {
    int length = 0;
    for (uint64_t x = m; x != 0; x >>= 1) ++length;
    int shift = length > 24 ? length - 24 : 0;
    uint64_t kept = m >> shift;
    if (shift > 0) {
        const uint64_t rest = m & ((UINT64_C(1) << shift) - 1), half = UINT64_C(1) << (shift - 1);
        bool up;
        switch (mode) {
        case PTO_ROUND_ROUND: up = rest >= half; break;
        case PTO_ROUND_FLOOR: up = negative && rest != 0; break;
        case PTO_ROUND_CEIL: up = !negative && rest != 0; break;
        case PTO_ROUND_TRUNC: up = false; break;
        default: up = rest > half || (rest == half && (kept & 1)); break;
        }
        kept += up;
    }
    const float f = ldexpf((float)kept, shift); /* kept <= 2^24: exact */
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return bits | (negative && m != 0 ? 0x80000000u : 0);
}

/* The expected element of dst for one source element (bits zero-extended). */
static uint64_t tcvt64_expected(pto_dtype src, pto_dtype dst, uint64_t in, pto_round_mode mode,
                                pto_saturation sat) {
    if (src == PTO_INT32) return (uint64_t)(int64_t)(int32_t)(uint32_t)in;
    if (src == PTO_INT64 && dst == PTO_INT32) {
        const int64_t v = (int64_t)in;
        if (sat == PTO_SAT_OFF) return (uint32_t)in;
        return (uint32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
    }
    if (src == PTO_INT64) {
        const int64_t v = (int64_t)in;
        const uint64_t m = v < 0 ? UINT64_C(0) - in : in;
        return u64_to_f32_bits(m, v < 0, mode == PTO_ROUND_NONE ? PTO_ROUND_RINT : mode);
    }
    /* FLOAT32 -> INT64: rounded by the mode (NONE truncates), saturated, NaN 0 */
    float f;
    const uint32_t b = (uint32_t)in;
    memcpy(&f, &b, 4);
    if (isnan(f)) return 0;
    double v = f;
    switch (mode) {
    case PTO_ROUND_RINT: v = nearbyint(v); break;
    case PTO_ROUND_ROUND: v = round(v); break;
    case PTO_ROUND_FLOOR: v = floor(v); break;
    case PTO_ROUND_CEIL: v = ceil(v); break;
    default: v = trunc(v); break;
    }
    if (v >= 0x1p63) return (uint64_t)INT64_MAX;
    if (v < -0x1p63) return (uint64_t)INT64_MIN;
    return (uint64_t)(int64_t)v;
}

/* A source element of dt: the shared generator's values (the 8-byte edges
 * among them) for the integers; for FLOAT32 the edges of INT64's range, of
 * the rounding modes, and random bits. */
static uint64_t source_value(pto_dtype dt, rng *r) {
    if (dt != PTO_FLOAT32) return gen_value(r, dt, GEN_ANY);
    static const float kEdges[] = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -2.5f, 0x1p62f, 0x1p63f,
                                   -0x1p63f, 0x1.fffffep62f, -0x1.fffffep62f, 0x1p64f, 1e30f,
                                   -1e30f, INFINITY, -INFINITY, NAN, 16777217.0f, 3.0e9f};
    float f;
    uint32_t bits = (uint32_t)rng_next(r);
    const uint64_t pick = rng_next(r) % 4;
    if (pick == 0) {
        f = kEdges[rng_next(r) % COUNT(kEdges)];
        memcpy(&bits, &f, 4);
    } else if (pick == 1) {
        f = (float)ldexp(rng_unit(r) - 0.5, (int)(rng_next(r) % 70));
        memcpy(&bits, &f, 4);
    }
    return bits;
}

static void test_tcvt(void **state) {
    (void)state;
    /* which pairs with an 8-byte side each profile accepts */
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        for (int a = 0; a < TEST_DTYPE_COUNT; ++a)
            for (int b = 0; b < TEST_DTYPE_COUNT; ++b) {
                const pto_dtype s = (pto_dtype)a, d = (pto_dtype)b;
                if (pto_dtype_size(s) != 8 && pto_dtype_size(d) != 8) continue;
                pto_tile *src = NULL, *dst = NULL;
                assert_int_equal(pto_tile_create(s, 2, 8, &src), PTO_OK);
                assert_int_equal(pto_tile_create(d, 2, 8, &dst), PTO_OK);
                const pto_status st = pto_tcvt(dst, src, NULL, PTO_ROUND_RINT, PTO_SAT_ON);
                if (pair64(s, d)) {
                    assert_int_equal(st, PTO_OK);
                } else {
                    assert_int_equal(st, PTO_ERR_UNSUPPORTED_DTYPE);
                    assert_non_null(strstr(pto_last_error(), "is not supported on"));
                }
                assert_int_equal(pto_tcvt(dst, src, NULL, PTO_ROUND_ODD, PTO_SAT_ON),
                                 pair64(s, d) ? PTO_ERR_INVALID_ARGUMENT : PTO_ERR_UNSUPPORTED_DTYPE);
                TILES_DESTROY(src, dst);
            }
    }
    /* values: every mode and saturation, on every profile (none changes
     * these pairs), over valid regions narrower than the tiles */
    static const pto_dtype kPairs[][2] = {{PTO_FLOAT32, PTO_INT64}, {PTO_INT32, PTO_INT64},
                                          {PTO_INT64, PTO_FLOAT32}, {PTO_INT64, PTO_INT32}};
    rng r = {0xC64};
    size_t elements = 0;
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        for (size_t k = 0; k < COUNT(kPairs); ++k)
            for (int mode = PTO_ROUND_NONE; mode <= PTO_ROUND_TRUNC; ++mode)
                for (int sat = PTO_SAT_OFF; sat <= PTO_SAT_ON; ++sat) {
                    const pto_dtype s = kPairs[k][0], d = kPairs[k][1];
                    pto_tile *src = NULL, *dst = NULL;
                    assert_int_equal(pto_tile_create(s, 6, 40, &src), PTO_OK);
                    assert_int_equal(pto_tile_create(d, 5, 37, &dst), PTO_OK);
                    assert_int_equal(pto_tile_set_valid(src, 5, 33), PTO_OK);
                    assert_int_equal(pto_tile_set_valid(dst, 5, 33), PTO_OK);
                    for (uint32_t i = 0; i < 6; ++i)
                        for (uint32_t j = 0; j < 40; ++j) {
                            tile_put(src, i, j, source_value(s, &r));
                        }
                    assert_int_equal(pto_tcvt(dst, src, NULL, (pto_round_mode)mode, (pto_saturation)sat),
                                     PTO_OK);
                    for (uint32_t i = 0; i < 5; ++i)
                        for (uint32_t j = 0; j < 37; ++j) {
                            const uint64_t want =
                                j < 33 ? tcvt64_expected(s, d, tile_get(src, i, j), (pto_round_mode)mode,
                                                         (pto_saturation)sat)
                                       : 0;
                            const uint64_t got = tile_get(dst, i, j);
                            if (got != want)
                                fail_msg("%s: %s -> %s mode %d sat %d: 0x%" PRIx64 " gives 0x%" PRIx64
                                         ", want 0x%" PRIx64,
                                         pto_profile_string(kProfiles[p]), pto_dtype_string(s),
                                         pto_dtype_string(d), mode, sat, tile_get(src, i, j), got, want);
                            ++elements;
                        }
                    TILES_DESTROY(src, dst);
                }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[int64] tcvt: %zu elements\n", elements);
}

/* ---- tgather and tscatter --------------------------------------------------- */

/* rows x cols indices of dt below bound. */
static pto_tile *new_indices(pto_dtype dt, uint32_t rows, uint32_t cols, uint32_t bound, rng *r) {
    pto_tile *t = tile_new(dt, rows, cols, rows, cols);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) tile_put(t, i, j, rng_next(r) % bound);
    return t;
}

/* Whether the call was accepted under profile; if not, the refusal names
 * the profile and dst is unchanged. */
static bool accepted_or_refused(op_id op, pto_profile profile, pto_dtype dt, pto_status st,
                                const uint64_t *before, const pto_tile *dst) {
    if (!op_accepts(op, profile, dt)) {
        assert_int_equal(st, PTO_ERR_UNSUPPORTED_DTYPE);
        assert_non_null(strstr(pto_last_error(), pto_profile_string(profile)));
        assert_tile_unchanged(dst, before, op_name(op));
        return false;
    }
    if (st != PTO_OK) fail_msg("%s %s: %s", op_name(op), pto_dtype_string(dt), pto_last_error());
    return true;
}

/* 8-byte data gathered and scattered by INT32 and UINT32 indices (A5's
 * pairing, HOST's too); 2-byte indices refused; A2A3 refuses the data. */
static void test_gather_scatter(void **state) {
    (void)state;
    static const pto_dtype kIndexDtypes[] = {PTO_INT32, PTO_UINT32};
    rng r = {0x6A7};
    for (size_t d = 0; d < COUNT(k64); ++d)
        for (size_t p = 0; p < COUNT(kProfiles); ++p)
            for (size_t x = 0; x < COUNT(kIndexDtypes); ++x) {
                const pto_dtype dt = k64[d];
                assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
                /* gather: dst 3x8 from a 4x10 src */
                pto_tile *src = filled(dt, 4, 10, 4, 10, &r), *dst = filled(dt, 3, 8, 3, 8, &r);
                pto_tile *idx = new_indices(kIndexDtypes[x], 3, 8, 40, &r);
                pto_tile *tmp = new_indices(kIndexDtypes[x], 3, 8, 1, &r);
                uint64_t *before = tile_snapshot(dst);
                pto_status st = pto_tgather(dst, src, idx, tmp);
                if (accepted_or_refused(OP_TGATHER, kProfiles[p], dt, st, before, dst))
                    for (size_t k = 0; k < 24; ++k) {
                        const uint64_t at = tile_get(idx, k / 8, k % 8);
                        assert_int_equal(tile_get(dst, k / 8, k % 8), tile_get(src, at / 10, at % 10));
                    }
                /* scatter: a 3x8 src into a 4x10 dst, zeroed first, later indices winning */
                pto_tile *sdst = filled(dt, 4, 10, 4, 10, &r);
                uint64_t *sbefore = tile_snapshot(sdst);
                st = pto_tscatter(sdst, dst, idx);
                if (accepted_or_refused(OP_TSCATTER, kProfiles[p], dt, st, sbefore, sdst)) {
                    uint64_t want[40] = {0};
                    for (size_t k = 0; k < 24; ++k) want[tile_get(idx, k / 8, k % 8)] = tile_get(dst, k / 8, k % 8);
                    assert_tile_unchanged(sdst, want, "tscatter's dst");
                }
                /* 2-byte indices for 8-byte data: refused where the data is accepted */
                pto_tile *narrow = new_indices(PTO_INT16, 3, 8, 40, &r);
                if (op_accepts(OP_TGATHER, kProfiles[p], dt)) {
                    assert_int_equal(pto_tgather(dst, src, narrow, NULL), PTO_ERR_DTYPE_MISMATCH);
                    assert_non_null(strstr(pto_last_error(), "4 bytes wide"));
                }
                if (op_accepts(OP_TSCATTER, kProfiles[p], dt))
                    assert_int_equal(pto_tscatter(sdst, dst, narrow), PTO_ERR_DTYPE_MISMATCH);
                free(before), free(sbefore);
                TILES_DESTROY(src, dst, idx, tmp, sdst, narrow);
            }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* A kernel over !pto.ptr<T> (T = i64 or ui64), memory as 8 rows of 8: a 4x8
 * tile with a vr x vc valid region loaded from rows 0..3, moved, stored to
 * rows 4..(4 + vr) (tstore's view as large as the valid region, as PTOAS's
 * verifier asks); element 64 copied to 65 through a scalar register. The
 * tile's type takes `pad`. */
static void kernel_text(char *out, size_t cap, const char *t, const char *pad, uint32_t vr,
                        uint32_t vc) {
    char tile[160];
    snprintf(tile, sizeof tile, "!pto.tile_buf<loc=vec, dtype=%s, rows=4, cols=8, v_row=%u, v_col=%u, "
             "blayout=row_major, slayout=none_box, fractal=512, pad=%s>", t, vr, vc, pad);
    snprintf(out, cap,
             "module {\n"
             "  func.func @k(%%p: !pto.ptr<%s>) {\n"
             "    %%c0 = arith.constant 0 : index\n"
             "    %%c1 = arith.constant 1 : index\n"
             "    %%c4 = arith.constant 4 : index\n"
             "    %%c8 = arith.constant 8 : index\n"
             "    %%c32 = arith.constant 32 : index\n"
             "    %%c64 = arith.constant 64 : index\n"
             "    %%c65 = arith.constant 65 : index\n"
             "    %%cvr = arith.constant %u : index\n"
             "    %%cvc = arith.constant %u : index\n"
             "    %%v = pto.make_tensor_view %%p, shape = [%%c8, %%c8], strides = [%%c8, %%c1] : !pto.tensor_view<?x?x%s>\n"
             "    %%a = pto.partition_view %%v, offsets = [%%c0, %%c0], sizes = [%%c4, %%c8] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<4x8x%s>\n"
             "    %%b = pto.partition_view %%v, offsets = [%%c4, %%c0], sizes = [%%cvr, %%cvc] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<%ux%ux%s>\n"
             "    %%s = pto.alloc_tile : %s\n"
             "    %%d = pto.alloc_tile : %s\n"
             "    pto.tload ins(%%a : !pto.partition_tensor_view<4x8x%s>) outs(%%s : %s)\n"
             "    pto.tmov ins(%%s : %s) outs(%%d : %s)\n"
             "    pto.tstore ins(%%d : %s) outs(%%b : !pto.partition_tensor_view<%ux%ux%s>)\n"
             "    %%x = pto.load_scalar %%p[%%c64] : !pto.ptr<%s> -> i64\n"
             "    pto.store_scalar %%x, %%p[%%c65] : !pto.ptr<%s>, i64\n"
             "    return\n"
             "  }\n"
             "}\n",
             t, vr, vc, t, t, t, t, vr, vc, t, tile, tile, t, tile, tile, tile, tile, vr, vc, t, t, t);
}

static void test_programs(void **state) {
    (void)state;
    static const char *const kSpellings[] = {"i64", "si64", "ui64"};
    static const pto_dtype kDtypes[] = {PTO_INT64, PTO_INT64, PTO_UINT64};
    rng r = {0xB64};
    char text[4096];
    for (size_t s = 0; s < COUNT(kSpellings); ++s) {
        /* a full valid region (no pad), and 3x5 valid with a zero pad */
        for (int padded = 0; padded < 2; ++padded) {
            const uint32_t vr = padded ? 3 : 4, vc = padded ? 5 : 8;
            kernel_text(text, sizeof text, kSpellings[s], padded ? "1" : "0", vr, vc);
            pto_program *p = program_build(text, NULL);
            assert_int_equal(pto_program_param_dtype(p, 0), kDtypes[s]);
            uint64_t mem[66];
            for (size_t i = 0; i < COUNT(mem); ++i) mem[i] = gen_value(&r, PTO_INT64, GEN_ANY);
            uint64_t before[66];
            memcpy(before, mem, sizeof mem);
            program_run_on(p, mem, sizeof mem);
            /* tstore writes the tile's valid region; with a zero pad the
             * whole 4x8 moves through tmov, but only vr x vc is stored */
            for (size_t i = 0; i < 4; ++i)
                for (size_t j = 0; j < 8; ++j) {
                    const uint64_t want = i < vr && j < vc ? before[i * 8 + j] : before[32 + i * 8 + j];
                    if (mem[32 + i * 8 + j] != want)
                        fail_msg("%s padded %d: element (%zu,%zu) is 0x%" PRIx64 ", want 0x%" PRIx64,
                                 kSpellings[s], padded, i, j, mem[32 + i * 8 + j], want);
                }
            assert_memory_equal(mem, before, 32 * 8);
            assert_int_equal(mem[65], before[64]);
            assert_int_equal(mem[64], before[64]);
            pto_program_destroy(p);
        }
        /* an 8-byte tile pads with zero or not at all */
        for (int pad = 2; pad <= 3; ++pad) {
            char pad_text[4];
            snprintf(pad_text, sizeof pad_text, "%d", pad);
            kernel_text(text, sizeof text, kSpellings[s], pad_text, 3, 5);
            expect_program_refused_with(text, NULL, "pads with zero or not at all");
        }
    }
    /* a view of i64 over a pointer of ui64, and an i32 register stored into
     * an i64 element, are refused */
    kernel_text(text, sizeof text, "i64", "0", 4, 8);
    char *view = strstr(text, "%p, shape");
    assert_non_null(view);
    char mixed[4096];
    snprintf(mixed, sizeof mixed, "%.*s", (int)(strstr(text, "!pto.ptr<i64>") - text), text);
    strcat(mixed, "!pto.ptr<ui64>");
    strcat(mixed, strstr(text, "!pto.ptr<i64>") + strlen("!pto.ptr<i64>"));
    expect_program_refused_with(mixed, NULL, "differs from the pointer's ui64");
    expect_program_refused_with("module {\n  func.func @k(%p: !pto.ptr<i64>) {\n"
                                "    %c0 = arith.constant 0 : index\n"
                                "    %x = pto.load_scalar %p[%c0] : !pto.ptr<i64> -> i32\n"
                                "    return\n  }\n}\n",
                                NULL, "is not the element type of !pto.ptr<i64>");
}

/* A program's tadds on an i64 tile with an i64 parameter as the scalar:
 * rows 0..3 of 8x8 memory plus the scalar into rows 4..7. An integer no
 * double holds (2^53 + 1) is refused when the instruction runs, naming it. */
static const char kTaddsKernel[] =
    "module {\n"
    "  func.func @k(%p: !pto.ptr<i64>, %s: i64) {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c4 = arith.constant 4 : index\n"
    "    %c8 = arith.constant 8 : index\n"
    "    %v = pto.make_tensor_view %p, shape = [%c8, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xi64>\n"
    "    %a = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xi64> -> !pto.partition_tensor_view<4x8xi64>\n"
    "    %b = pto.partition_view %v, offsets = [%c4, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xi64> -> !pto.partition_tensor_view<4x8xi64>\n"
    "    %t = pto.alloc_tile : !pto.tile_buf<vec, 4x8xi64>\n"
    "    %d = pto.alloc_tile : !pto.tile_buf<vec, 4x8xi64>\n"
    "    pto.tload ins(%a : !pto.partition_tensor_view<4x8xi64>) outs(%t : !pto.tile_buf<vec, 4x8xi64>)\n"
    "    pto.tadds ins(%t, %s : !pto.tile_buf<vec, 4x8xi64>, i64) outs(%d : !pto.tile_buf<vec, 4x8xi64>)\n"
    "    pto.tstore ins(%d : !pto.tile_buf<vec, 4x8xi64>) outs(%b : !pto.partition_tensor_view<4x8xi64>)\n"
    "    return\n"
    "  }\n"
    "}\n";

static void test_program_scalars(void **state) {
    (void)state;
    static const int64_t kScalars[] = {0, -1, INT64_MIN, INT64_C(9007199254740992), INT64_C(9007199254740993),
                                       INT64_MAX};
    rng r = {0x5CA};
    pto_program *p = program_build(kTaddsKernel, NULL);
    for (size_t k = 0; k < COUNT(kScalars); ++k) {
        uint64_t mem[64], before[64];
        for (size_t i = 0; i < 64; ++i) mem[i] = gen_value(&r, PTO_INT64, GEN_ANY);
        memcpy(before, mem, sizeof mem);
        pto_args *a = NULL;
        assert_int_equal(pto_args_create(p, &a), PTO_OK);
        assert_int_equal(pto_args_set_pointer(a, 0, mem, sizeof mem), PTO_OK);
        assert_int_equal(pto_args_set_int(a, 1, kScalars[k]), PTO_OK);
        const pto_status st = pto_program_run(p, a);
        pto_args_destroy(a);
        const bool exact = (double)kScalars[k] < 0x1p63 && (int64_t)(double)kScalars[k] == kScalars[k];
        if (!exact) {
            assert_int_equal(st, PTO_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(pto_last_error(), "is not exactly a double"));
            assert_memory_equal(mem + 32, before + 32, 32 * 8);
            continue;
        }
        if (st != PTO_OK) fail_msg("scalar %" PRId64 ": %s", kScalars[k], pto_last_error());
        for (size_t i = 0; i < 32; ++i) assert_int_equal(mem[32 + i], before[i] + (uint64_t)kScalars[k]);
        assert_memory_equal(mem, before, 32 * 8);
    }
    pto_program_destroy(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_dtypes_of_one_size),
        cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_scalar_range),
        cmocka_unit_test(test_selects_by_profile),
        cmocka_unit_test(test_tcvt),
        cmocka_unit_test(test_gather_scatter),
        cmocka_unit_test(test_programs),
        cmocka_unit_test(test_program_scalars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
