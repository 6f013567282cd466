/* The bitwise operations, the shifts and fmod (pto_tand, pto_tor, pto_txor,
 * pto_tnot, pto_tshl, pto_tshr, pto_tfmod and the scalar forms): edge values
 * whose results are written here from the pages' math (C's &, |, ^, ~, <<,
 * >> and fmod) and pto_c.h's rules for what the pages leave open (shift
 * counts of the width or more, division by zero); each profile's dtype,
 * no-overlap and shift-count rules, nothing written on a refusal; the text
 * forms (TXOR's and TXORS's tmp, TFMOD's precisionType) against the C call.
 * The generic loops (test_ops, test_identity, test_profiles) check every
 * dtype against tests/support/reference.c on every target. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* One element: op(a, b) on 1x1 tiles (a Scalar row's scalar is b's value,
 * a Unary row ignores b), under the current profile. */
static pto_status one(op_id op, pto_dtype dt, uint64_t a, uint64_t b, uint64_t *out) {
    pto_tile *dst = tile_new(dt, 1, 1, 1, 1), *s0 = tile_new(dt, 1, 1, 1, 1), *s1 = tile_new(dt, 1, 1, 1, 1);
    tile_put(s0, 0, 0, a);
    tile_put(s1, 0, 0, b);
    tile_put(dst, 0, 0, 0x5A);
    const pto_status st = op_call(op, PTO_POW_DEFAULT, dst, s0, s1, NULL);
    *out = tile_get(dst, 0, 0);
    pto_tile_destroy(dst), pto_tile_destroy(s0), pto_tile_destroy(s1);
    return st;
}

typedef struct {
    op_id op;
    pto_dtype dt;
    uint64_t a, b, want; /* element patterns */
} edge;

#define I8(v) ((uint64_t)(uint8_t)(int8_t)(v))
#define I16(v) ((uint64_t)(uint16_t)(int16_t)(v))
#define I32(v) ((uint64_t)(uint32_t)(int32_t)(v))
#define I64(v) ((uint64_t)(int64_t)(v))

static const edge kIntegerEdges[] = {
    {OP_TAND, PTO_UINT8, 0xF0, 0x3C, 0x30},
    {OP_TAND, PTO_INT32, I32(-1), 0x12345678, 0x12345678},
    {OP_TOR, PTO_INT16, 0x0F00, 0x00F0, 0x0FF0},
    {OP_TOR, PTO_UINT32, 0x80000000u, 1, 0x80000001u},
    {OP_TXOR, PTO_INT8, I8(-1), 0x0F, 0xF0},
    {OP_TXOR, PTO_UINT16, 0xAAAA, 0xFFFF, 0x5555},
    {OP_TNOT, PTO_INT32, 0, 0, 0xFFFFFFFFu},
    {OP_TNOT, PTO_UINT8, 0x5A, 0, 0xA5},
    {OP_TANDS, PTO_UINT16, 0x1234, 0xFF, 0x34},
    {OP_TORS, PTO_INT8, 0x40, 0x01, 0x41},
    {OP_TXORS, PTO_UINT32, 0xFFFF0000u, 0xFFFFFFFFu, 0x0000FFFFu},
    /* shifts: counts 0, width - 1, the width and beyond shift everything out */
    {OP_TSHL, PTO_UINT8, 0x81, 1, 0x02},
    {OP_TSHL, PTO_INT8, 1, 7, 0x80},
    {OP_TSHL, PTO_INT8, 1, 8, 0},
    {OP_TSHL, PTO_INT16, 3, 0, 3},
    {OP_TSHL, PTO_UINT16, 0xFFFF, 15, 0x8000},
    {OP_TSHL, PTO_INT32, 1, 31, 0x80000000u},
    {OP_TSHL, PTO_INT32, 1, 32, 0},
    {OP_TSHL, PTO_UINT32, 7, 200, 0},
    {OP_TSHL, PTO_INT32, 5, I32(-1), 0}, /* a negative count is a large one */
    {OP_TSHL, PTO_INT64, 1, 63, UINT64_C(0x8000000000000000)},
    {OP_TSHL, PTO_UINT64, 3, 64, 0},
    {OP_TSHR, PTO_INT8, I8(-128), 1, I8(-64)}, /* arithmetic: the sign comes in */
    {OP_TSHR, PTO_INT8, I8(-1), 7, I8(-1)},
    {OP_TSHR, PTO_INT8, I8(-5), 8, I8(-1)},
    {OP_TSHR, PTO_INT8, 100, 9, 0},
    {OP_TSHR, PTO_UINT8, 0x80, 7, 1}, /* logical: zeros come in */
    {OP_TSHR, PTO_UINT8, 0xFF, 8, 0},
    {OP_TSHR, PTO_INT16, I16(-7), 1, I16(-4)}, /* floor(-7 / 2) */
    {OP_TSHR, PTO_UINT16, 0x8000, 15, 1},
    {OP_TSHR, PTO_INT32, I32(INT32_MIN), 31, I32(-1)},
    {OP_TSHR, PTO_INT32, I32(-9), 40, I32(-1)},
    {OP_TSHR, PTO_UINT32, 0x80000000u, 31, 1},
    {OP_TSHR, PTO_UINT32, 0x80000000u, 32, 0},
    {OP_TSHR, PTO_INT64, I64(INT64_MIN), 63, I64(-1)},
    {OP_TSHR, PTO_UINT64, UINT64_MAX, 63, 1},
    {OP_TSHLS, PTO_INT16, 3, 4, 48},
    {OP_TSHLS, PTO_UINT8, 0xFF, 4, 0xF0},
    {OP_TSHLS, PTO_INT32, 1, 32, 0},
    {OP_TSHRS, PTO_INT16, I16(-32768), 15, I16(-1)},
    {OP_TSHRS, PTO_UINT16, 0xF000, 12, 0xF},
    {OP_TSHRS, PTO_INT64, I64(-1024), 3, I64(-128)},
    /* fmod: the dividend's sign, x fmod 0 = x, MIN fmod -1 = 0 */
    {OP_TFMOD, PTO_INT32, I32(-7), 2, I32(-1)},
    {OP_TFMOD, PTO_INT32, 7, I32(-2), 1},
    {OP_TFMOD, PTO_INT32, I32(-7), I32(-2), I32(-1)},
    {OP_TFMOD, PTO_INT32, 9, 0, 9},
    {OP_TFMOD, PTO_INT32, I32(INT32_MIN), I32(-1), 0},
    {OP_TFMOD, PTO_INT16, I16(-32768), 3, I16(-2)},
    {OP_TFMOD, PTO_UINT16, 65535, 10, 5},
    {OP_TFMOD, PTO_UINT32, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu},
    {OP_TFMODS, PTO_INT32, I32(-10), 3, I32(-1)},
    {OP_TFMODS, PTO_INT16, 10, I16(-3), 1},
    {OP_TFMODS, PTO_UINT32, 17, 0, 17},
};

/* Float fmod: exact, of the dividend's sign (a zero too); y = 0, an
 * infinite x or a NaN give NaN; an infinite y gives x. */
typedef struct {
    double a, b, want;
} fmod_edge;

static const fmod_edge kFmodEdges[] = {
    {5.5, 2, 1.5},          {-5.5, 2, -1.5},       {5.5, -2, 1.5},  {-4, 2, -0.0},
    {4, -2, 0.0},           {0x1p100, 3, 1},        /* 2^100 = 3k + 1, exactly */
    {5 * 0x1p-140, 3 * 0x1p-140, 2 * 0x1p-140}, /* subnormal in float32 */  {1, INFINITY, 1},       {-2.5, -INFINITY, -2.5},
    {1, 0, NAN},            {INFINITY, 2, NAN},     {NAN, 1, NAN},   {-0.0, 1, -0.0},
};

static void test_edge_values(void **state) {
    (void)state;
    size_t checked = 0;
    for (size_t k = 0; k < COUNT(kIntegerEdges); ++k) {
        const edge *e = &kIntegerEdges[k];
        uint64_t got;
        const pto_status st = one(e->op, e->dt, e->a, e->b, &got);
        if (st != PTO_OK)
            fail_msg("%s %s: %s (%s)", op_name(e->op), pto_dtype_string(e->dt), pto_status_string(st),
                     pto_last_error());
        if (got != ref_int_wrap(e->dt, e->want))
            fail_msg("%s %s (0x%llx, 0x%llx): 0x%llx, want 0x%llx", op_name(e->op), pto_dtype_string(e->dt),
                     (unsigned long long)e->a, (unsigned long long)e->b, (unsigned long long)got,
                     (unsigned long long)ref_int_wrap(e->dt, e->want));
        ++checked;
    }
    const pto_dtype floats[] = {PTO_FLOAT32, PTO_FLOAT16};
    const op_id ops[] = {OP_TFMOD, OP_TFMODS};
    for (size_t f = 0; f < COUNT(floats); ++f)
        for (size_t o = 0; o < COUNT(ops); ++o)
            for (size_t k = 0; k < COUNT(kFmodEdges); ++k) {
                const fmod_edge *e = &kFmodEdges[k];
                const pto_dtype dt = floats[f];
                /* float16 holds neither 2^100 nor 1e-40 */
                if (dt == PTO_FLOAT16 && (fabs(e->a) > 65504 && !isinf(e->a))) continue;
                if (dt == PTO_FLOAT16 && e->a != 0 && fabs(e->a) < 1e-8) continue;
                uint64_t got;
                assert_int_equal(one(ops[o], dt, ref_from_double(dt, e->a), ref_from_double(dt, e->b), &got),
                                 PTO_OK);
                const double g = ref_to_double(dt, got), w = ref_to_double(dt, ref_from_double(dt, e->want));
                const bool same = isnan(w) ? isnan(g) : g == w && signbit(g) == signbit(w);
                if (!same)
                    fail_msg("%s %s fmod(%g, %g) = %g, want %g", op_name(ops[o]), pto_dtype_string(dt), e->a,
                             e->b, g, w);
                ++checked;
            }
    print_message("[bitwise] %zu edge values as the pages' math gives them\n", checked);
}

/* The scalar shifts over rows of every length 1..40 on every SIMD target, so
 * each row's last elements go through the drivers' narrowest vectors (one
 * lane of 32 or 64 bits, where a target's shift by a broadcast count must
 * not read lanes the vector does not have). */
typedef struct {
    size_t checked;
} tails_ctx;

static void shift_tails_body(void *ctx, size_t target_index, const char *target) {
    (void)target_index;
    tails_ctx *t = ctx;
    const pto_dtype dts[] = {PTO_INT32, PTO_UINT32, PTO_INT64, PTO_UINT64, PTO_INT16, PTO_UINT8};
    const double counts[] = {1, 5, 31, 40};
    for (size_t k = 0; k < COUNT(dts); ++k)
        for (size_t c = 0; c < COUNT(counts); ++c)
            for (uint32_t cols = 1; cols <= 40; ++cols)
                for (int form = 0; form < 4; ++form) {
                    /* right shift or left; whole 3 x cols tiles (one run of
                     * 3 * cols elements) or 3 x cols regions of wider rows */
                    const int right = form & 1;
                    const uint32_t pitch = form & 2 ? cols + 1 : cols;
                    const pto_dtype dt = dts[k];
                    pto_tile *d = tile_new(dt, 3, pitch, 3, cols), *s = tile_new(dt, 3, pitch, 3, cols);
                    for (uint32_t i = 0; i < 3; ++i)
                        for (uint32_t j = 0; j < cols; ++j)
                            tile_put(s, i, j, ref_int_wrap(dt, (uint64_t)(i * 977 + j * 131 + 3) * 0x9E3779B97F4A7C15u));
                    const pto_status st = right ? pto_tshrs(d, s, counts[c]) : pto_tshls(d, s, counts[c]);
                    expect_status(st, PTO_OK, right ? "pto_tshrs" : "pto_tshls");
                    for (uint32_t i = 0; i < 3; ++i)
                        for (uint32_t j = 0; j < cols; ++j) {
                            const uint64_t a = tile_get(s, i, j), n = (uint64_t)counts[c];
                            const uint64_t want = right ? ref_tshrs(dt, a, n) : ref_tshls(dt, a, n);
                            if (tile_get(d, i, j) != want)
                                fail_msg("%s %s by %g on %s, %u columns, element (%u,%u): 0x%llx, want 0x%llx",
                                         right ? "tshrs" : "tshls", pto_dtype_string(dt), counts[c], target, cols,
                                         i, j, (unsigned long long)tile_get(d, i, j), (unsigned long long)want);
                            ++t->checked;
                        }
                    TILES_DESTROY(d, s);
                }
}

static void test_shift_tails(void **state) {
    (void)state;
    tails_ctx t = {0};
    for_each_target("scalar shifts over every row length", shift_tails_body, &t);
    print_message("[bitwise] %zu scalar-shift elements over rows of 1..40 on every target (whole tiles and regions)\n", t.checked);
}

/* tfmod and tfmods on the integer dtypes over whole vectors (9 x 67
 * regions of 9 x 70 tiles: full vectors and a tail on every target): random
 * dividends and divisors of the dtype's width, among them 0, -1, 1, 2, the
 * smallest and largest values and half the range on both sides, small
 * divisors (large quotients) too, against the reference's truncated
 * remainder; tfmods with edge and random scalars. */
typedef struct {
    size_t checked;
} int_fmod_ctx;

static uint64_t edge_value(pto_dtype dt, uint32_t pick) {
    const unsigned bits = (unsigned)pto_dtype_size(dt) * 8;
    const uint64_t top = UINT64_C(1) << (bits - 1); /* the most negative value's bits, or half the range */
    const uint64_t kEdges[] = {0, ~UINT64_C(0), 1, 2, top, top - 1, 7, (uint64_t)-7, top >> 1, 65536};
    return ref_int_wrap(dt, kEdges[pick % COUNT(kEdges)]);
}

static void expect_fmod(const char *form, const char *target, pto_dtype dt, uint64_t x, uint64_t y, uint64_t got) {
    const uint64_t want = ref_tfmod(dt, x, y);
    if (got != want)
        fail_msg("%s %s on %s: %lld fmod %lld = %lld, want %lld", form, pto_dtype_string(dt), target,
                 (long long)ref_int_value(dt, x), (long long)ref_int_value(dt, y), (long long)ref_int_value(dt, got),
                 (long long)ref_int_value(dt, want));
}

static void integer_fmod_body(void *ctx, size_t target_index, const char *target) {
    int_fmod_ctx *c = ctx;
    static const pto_dtype kDtypes[] = {PTO_INT32, PTO_UINT32, PTO_INT16, PTO_UINT16};
    for (size_t k = 0; k < COUNT(kDtypes); ++k) {
        const pto_dtype dt = kDtypes[k];
        const unsigned bits = (unsigned)pto_dtype_size(dt) * 8;
        rng r = {0x5EED0F00u + target_index * 8 + k};
        pto_tile *d = tile_new(dt, 9, 70, 9, 67), *a = tile_new(dt, 9, 70, 9, 67), *b = tile_new(dt, 9, 70, 9, 67);
        for (uint32_t i = 0; i < 9; ++i)
            for (uint32_t j = 0; j < 67; ++j) {
                const uint32_t pick = (uint32_t)rng_next(&r);
                uint64_t x = ref_int_wrap(dt, rng_next(&r)), y = ref_int_wrap(dt, rng_next(&r));
                if (pick % 5 == 0) x = edge_value(dt, pick >> 8);
                if (pick % 7 == 0) y = edge_value(dt, pick >> 16);
                if (pick % 3 == 0) y >>= (pick >> 24) % (bits - 1); /* small divisors too */
                tile_put(a, i, j, x), tile_put(b, i, j, y);
            }
        expect_status(pto_tfmod(d, a, b), PTO_OK, "pto_tfmod");
        for (uint32_t i = 0; i < 9; ++i)
            for (uint32_t j = 0; j < 67; ++j, ++c->checked)
                expect_fmod("tfmod", target, dt, tile_get(a, i, j), tile_get(b, i, j), tile_get(d, i, j));
        for (uint32_t s = 0; s < 14; ++s) {
            const uint64_t y = s < 10 ? edge_value(dt, s) : ref_int_wrap(dt, rng_next(&r) >> (rng_next(&r) % bits));
            expect_status(pto_tfmods(d, a, (double)ref_int_value(dt, y)), PTO_OK, "pto_tfmods");
            for (uint32_t i = 0; i < 9; ++i)
                for (uint32_t j = 0; j < 67; ++j, ++c->checked)
                    expect_fmod("tfmods", target, dt, tile_get(a, i, j), y, tile_get(d, i, j));
        }
        TILES_DESTROY(d, a, b);
    }
}

static void test_integer_fmod(void **state) {
    (void)state;
    int_fmod_ctx c = {0};
    for_each_target("tfmod and tfmods on the integer dtypes over whole vectors", integer_fmod_body, &c);
    print_message("[bitwise] %zu integer tfmod and tfmods elements on every target\n", c.checked);
}

/* A refusal under the profile, with the status and nothing written. */
static void expect_refused(pto_profile p, pto_status want, pto_status got, pto_tile *dst, uint64_t *before,
                           const char *what) {
    if (got != want)
        fail_msg("%s under %s: %s, want %s (%s)", what, pto_profile_string(p), pto_status_string(got),
                 pto_status_string(want), pto_last_error());
    assert_tile_unchanged(dst, before, what);
    if (strstr(pto_last_error(), pto_profile_string(p)) == NULL)
        fail_msg("%s: \"%s\" does not name %s", what, pto_last_error(), pto_profile_string(p));
}

/* TXOR in place and apart from its sources (A2A3 refuses dst on a source);
 * TANDS and TORS in place (A2A3 and A5 refuse); TXORS in place (A2A3
 * refuses); TSHLS and TSHRS with a negative count (A2A3 and A5 refuse,
 * HOST reads it as a large count); each dtype list's ends. */
static void test_profile_rules(void **state) {
    (void)state;
    const pto_profile profiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    size_t refusals = 0;
    for (size_t k = 0; k < COUNT(profiles); ++k) {
        const pto_profile p = profiles[k];
        const bool host = p == PTO_PROFILE_HOST, a2a3 = p == PTO_PROFILE_A2A3;
        assert_int_equal(pto_set_profile(p), PTO_OK);
        pto_tile *d = tile_new(PTO_INT16, 2, 8, 2, 8), *s = tile_new(PTO_INT16, 2, 8, 2, 8);
        for (uint32_t j = 0; j < 8; ++j) tile_put(d, 0, j, j), tile_put(d, 1, j, 0x100 + j), tile_put(s, 0, j, 3);
        uint64_t *before = tile_snapshot(d);

        pto_status st = pto_txor(d, d, s);
        if (a2a3) expect_refused(p, PTO_ERR_ALIASING, st, d, before, "txor in place"), ++refusals;
        else assert_int_equal(st, PTO_OK);
        free(before), before = tile_snapshot(d);
        st = pto_txor(d, s, d);
        if (a2a3) expect_refused(p, PTO_ERR_ALIASING, st, d, before, "txor in place (src1)"), ++refusals;
        else assert_int_equal(st, PTO_OK);
        assert_int_equal(pto_txor(d, s, s), PTO_OK); /* apart: every profile */

        free(before), before = tile_snapshot(d);
        st = pto_tands(d, d, 0xFF);
        if (!host) expect_refused(p, PTO_ERR_ALIASING, st, d, before, "tands in place"), ++refusals;
        else assert_int_equal(st, PTO_OK);
        free(before), before = tile_snapshot(d);
        st = pto_tors(d, d, 1);
        if (!host) expect_refused(p, PTO_ERR_ALIASING, st, d, before, "tors in place"), ++refusals;
        else assert_int_equal(st, PTO_OK);
        free(before), before = tile_snapshot(d);
        st = pto_txors(d, d, 1);
        if (a2a3) expect_refused(p, PTO_ERR_ALIASING, st, d, before, "txors in place"), ++refusals;
        else assert_int_equal(st, PTO_OK);

        free(before), before = tile_snapshot(d);
        st = pto_tshls(d, s, -1);
        if (!host) {
            expect_refused(p, PTO_ERR_INVALID_ARGUMENT, st, d, before, "tshls with a negative count"), ++refusals;
            free(before), before = tile_snapshot(d);
            expect_refused(p, PTO_ERR_INVALID_ARGUMENT, pto_tshrs(d, s, -3), d, before,
                           "tshrs with a negative count");
            ++refusals;
        } else {
            assert_int_equal(st, PTO_OK);
            assert_int_equal(tile_get(d, 0, 0), 0); /* every bit shifted out */
            assert_int_equal(pto_tshrs(d, s, -3), PTO_OK);
            assert_int_equal(tile_get(d, 0, 0), 0); /* 3 >> 65533 */
        }
        /* a positive count and zero on every profile */
        assert_int_equal(pto_tshls(d, s, 0), PTO_OK);
        assert_int_equal(tile_get(d, 0, 0), 3);
        assert_int_equal(pto_tshrs(d, s, 1), PTO_OK);
        assert_int_equal(tile_get(d, 0, 0), 1);
        free(before);
        pto_tile_destroy(d), pto_tile_destroy(s);

        /* dtype lists: TSHL's 64-bit integers on HOST and A5, TSHLS's INT8
         * and TFMOD's integers not on A2A3 */
        struct {
            op_id op;
            pto_dtype dt;
        } lists[] = {{OP_TSHL, PTO_INT64}, {OP_TSHR, PTO_UINT64}, {OP_TSHLS, PTO_INT8},
                     {OP_TSHRS, PTO_UINT8}, {OP_TFMOD, PTO_INT32}, {OP_TFMODS, PTO_FLOAT16}};
        for (size_t l = 0; l < COUNT(lists); ++l) {
            uint64_t got;
            const pto_status want = a2a3 ? PTO_ERR_UNSUPPORTED_DTYPE : PTO_OK;
            const pto_status got_status = one(lists[l].op, lists[l].dt, 1, 1, &got);
            if (got_status != want)
                fail_msg("%s %s under %s: %s, want %s", op_name(lists[l].op), pto_dtype_string(lists[l].dt),
                         pto_profile_string(p), pto_status_string(got_status), pto_status_string(want));
            if (a2a3) ++refusals;
        }
        /* floats are no bitwise dtype anywhere */
        uint64_t got;
        assert_int_equal(one(OP_TAND, PTO_FLOAT32, 0, 0, &got), PTO_ERR_UNSUPPORTED_DTYPE);
        assert_int_equal(one(OP_TNOT, PTO_FLOAT16, 0, 0, &got), PTO_ERR_UNSUPPORTED_DTYPE);
        refusals += 2;
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[bitwise] %zu refusals with their status, nothing written\n", refusals);
}

/* Each text form of PTOAS (the DPS form, TXOR's and TXORS's tmp, TFMOD's
 * precisionType, an i16 shift count, the SSA form) against the C call; the
 * tmps PTOAS's A2/A3 verifier refuses. */
static void test_program_forms(void **state) {
    (void)state;
    rng r = {0xB17};
    const char *tb = "!pto.tile_buf<vec, 3x16xi16, valid=3x13>";
    char text[1024];
    struct {
        const char *body; /* %1$s: the type */
        op_id op;
        int64_t scalar;
    } forms[] = {
        {"pto.tand ins(%%s, %%s : %1$s, %1$s) outs(%%d : %1$s)\n", OP_TAND, 0},
        {"%%t = pto.alloc_tile : %1$s\npto.txor ins(%%s, %%s, %%t : %1$s, %1$s, %1$s) outs(%%d : %1$s)\n",
         OP_TXOR, 0},
        {"%%d = pto.tor %%s, %%s : (%1$s, %1$s) -> %1$s\n", OP_TOR, 0},
        {"pto.tnot ins(%%s : %1$s) outs(%%d : %1$s)\n", OP_TNOT, 0},
        {"pto.tshl ins(%%s, %%s : %1$s, %1$s) outs(%%d : %1$s)\n", OP_TSHL, 0},
        {"pto.tshr ins(%%s, %%s : %1$s, %1$s) outs(%%d : %1$s)\n", OP_TSHR, 0},
        {"pto.tfmod ins(%%s, %%s : %1$s, %1$s) outs(%%d : %1$s) {precisionType = #pto<fmod_precision "
         "high_precision>}\n",
         OP_TFMOD, 0},
        {"%%c = arith.constant 5 : i16\npto.tshls ins(%%s, %%c : %1$s, i16) outs(%%d : %1$s)\n", OP_TSHLS, 5},
        {"%%c = arith.constant 2 : i16\npto.tshrs ins(%%s, %%c : %1$s, i16) outs(%%d : %1$s)\n", OP_TSHRS, 2},
        {"%%c = arith.constant 255 : i16\npto.tands ins(%%s, %%c : %1$s, i16) outs(%%d : %1$s)\n", OP_TANDS, 255},
        {"%%c = arith.constant 9 : i16\npto.tors ins(%%s, %%c : %1$s, i16) outs(%%d : %1$s)\n", OP_TORS, 9},
        {"%%c = arith.constant 3 : i16\n%%t = pto.alloc_tile : %1$s\n"
         "pto.txors ins(%%s, %%c, %%t : %1$s, i16, %1$s) outs(%%d : %1$s)\n",
         OP_TXORS, 3},
        {"%%c = arith.constant -7 : i16\npto.tfmods ins(%%s, %%c : %1$s, i16) outs(%%d : %1$s)\n", OP_TFMODS, -7},
    };
    for (size_t f = 0; f < COUNT(forms); ++f) {
        pto_tile *s = tile_new(PTO_INT16, 3, 16, 3, 13), *want = tile_new(PTO_INT16, 3, 16, 3, 13);
        pto_tile *got = tile_new(PTO_INT16, 3, 16, 3, 13);
        tile_fill(s, &r, GEN_ANY);
        /* tshl and tshr read their counts from s itself: the low four bits,
         * so that some stay below the width */
        if (forms[f].op == OP_TSHL || forms[f].op == OP_TSHR)
            for (uint32_t i = 0; i < 3; ++i)
                for (uint32_t j = 0; j < 13; ++j)
                    if ((i + j) % 3 != 0) tile_put(s, i, j, tile_get(s, i, j) & 0xF);
        const pto_status c_status = op_row(forms[f].op)->family == OP_FAMILY_SCALAR
                                        ? op_scalar_function(forms[f].op)(want, s, (double)forms[f].scalar)
                                        : op_call(forms[f].op, PTO_POW_DEFAULT, want, s, s, NULL);
        assert_int_equal(c_status, PTO_OK);
        snprintf(text, sizeof text, forms[f].body, tb);
        const pto_status st = run_snippet_sd(text, s, got);
        if (st != PTO_OK) fail_msg("%s: %s (%s)", text, pto_status_string(st), pto_last_error());
        for (uint32_t i = 0; i < 3; ++i)
            for (uint32_t j = 0; j < 13; ++j)
                if (tile_get(want, i, j) != tile_get(got, i, j))
                    fail_msg("%s: (%u,%u) 0x%llx, the C call 0x%llx", text, i, j,
                             (unsigned long long)tile_get(got, i, j), (unsigned long long)tile_get(want, i, j));
        pto_tile_destroy(s), pto_tile_destroy(want), pto_tile_destroy(got);
    }
    /* PTOAS's A2/A3 verifier on TXOR's and TXORS's tmp: dst's dtype,
     * row-major, at least dst's size; A5 takes any tmp */
    const char *bad_tmps[] = {"!pto.tile_buf<vec, 3x16xi8, valid=3x13>",
                              "!pto.tile_buf<loc=vec, dtype=i16, rows=16, cols=1, v_row=16, v_col=1, "
                              "blayout=col_major, slayout=none_box, fractal=512, pad=0>",
                              "!pto.tile_buf<vec, 2x16xi16>"};
    for (size_t k = 0; k < COUNT(bad_tmps); ++k)
        for (int scalar = 0; scalar <= 1; ++scalar) {
            if (scalar)
                snprintf(text, sizeof text,
                         "%%c = arith.constant 3 : i16\n%%t = pto.alloc_tile : %2$s\n"
                         "pto.txors ins(%%s, %%c, %%t : %1$s, i16, %2$s) outs(%%d : %1$s)\n",
                         tb, bad_tmps[k]);
            else
                snprintf(text, sizeof text,
                         "%%t = pto.alloc_tile : %2$s\n"
                         "pto.txor ins(%%s, %%s, %%t : %1$s, %1$s, %2$s) outs(%%d : %1$s)\n",
                         tb, bad_tmps[k]);
            assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
            expect_program_refused(text, PTO_ERR_INVALID_ARGUMENT);
            assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
            pto_tile *s5 = tile_new(PTO_INT16, 3, 16, 3, 13), *d5 = tile_new(PTO_INT16, 3, 16, 3, 13);
            assert_int_equal(run_snippet_sd(text, s5, d5), PTO_OK);
            pto_tile_destroy(s5), pto_tile_destroy(d5);
        }
    /* TANDS in place is refused under A2A3 in programs as in C */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    pto_tile *s = tile_new(PTO_INT16, 3, 16, 3, 13);
    snprintf(text, sizeof text,
             "%%c = arith.constant 1 : i16\npto.tands ins(%%s, %%c : %1$s, i16) outs(%%s : %1$s)\n", tb);
    pto_program *p = NULL;
    const pto_status created = pto_program_create(text, strlen(text), "t.pto", &p);
    if (created == PTO_OK) {
        /* checked when it runs, on the bound tile */
        const char *const names[] = {"s"};
        pto_tile *const tiles[] = {s};
        pto_program_destroy(p);
        assert_int_equal(run_program_bound(text, names, tiles, 1, NULL, NULL, 0), PTO_ERR_ALIASING);
    } else {
        assert_int_equal(created, PTO_ERR_ALIASING);
    }
    pto_tile_destroy(s);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[bitwise] %zu text forms equal to the C call\n", COUNT(forms));
}

/* A5's 64-bit shifts take the count mod 64 (a5/Int64Binary.hpp
 * Int64ShiftRegs masks it with 63; pto-isa's A5 ST goldens expect that):
 * counts 64, 65, 127 and 0x10000 are 0, 1, 63 and 0 there, both forms, both
 * dtypes, in place too; HOST keeps shifting every bit out. */
static void test_a5_wide_shift_counts(void **state) {
    (void)state;
    const uint64_t counts[] = {64, 65, 127, 0x10000, 3};
    const uint64_t values[] = {1, UINT64_C(0x8000000000000001), UINT64_C(0xFFFFFFFFFFFFFFF8), 5, 7};
    const pto_dtype dts[] = {PTO_INT64, PTO_UINT64};
    size_t checked = 0;
    for (int a5 = 0; a5 < 2; ++a5) {
        assert_int_equal(pto_set_profile(a5 ? PTO_PROFILE_A5 : PTO_PROFILE_HOST), PTO_OK);
        for (size_t d = 0; d < COUNT(dts); ++d) {
            pto_tile *v = tile_new(dts[d], 1, 8, 1, 5), *c = tile_new(dts[d], 1, 8, 1, 5);
            pto_tile *l = tile_new(dts[d], 1, 8, 1, 5), *r = tile_new(dts[d], 1, 8, 1, 5);
            for (uint32_t j = 0; j < 5; ++j) tile_put(v, 0, j, values[j]), tile_put(c, 0, j, counts[j]);
            assert_int_equal(pto_tshl(l, v, c), PTO_OK);
            assert_int_equal(pto_tshr(r, v, c), PTO_OK);
            for (uint32_t j = 0; j < 5; ++j) {
                const uint64_t x = values[j], n = a5 ? counts[j] & 63 : counts[j];
                const bool neg = dts[d] == PTO_INT64 && (x >> 63) != 0;
                const uint64_t want_l = n >= 64 ? 0 : x << n;
                uint64_t want_r = n >= 64 ? 0 : x >> n;
                if (neg) want_r = n >= 64 ? ~UINT64_C(0) : want_r | (n ? ~(~UINT64_C(0) >> n) : 0);
                if (tile_get(l, 0, j) != want_l || tile_get(r, 0, j) != want_r)
                    fail_msg("%s %s 0x%llx by %llu: << 0x%llx >> 0x%llx, want 0x%llx 0x%llx", a5 ? "A5" : "HOST",
                             pto_dtype_string(dts[d]), (unsigned long long)x, (unsigned long long)counts[j],
                             (unsigned long long)tile_get(l, 0, j), (unsigned long long)tile_get(r, 0, j),
                             (unsigned long long)want_l, (unsigned long long)want_r);
                checked += 2;
            }
            /* the scalar forms, and a count tile that is dst itself */
            assert_int_equal(pto_tshls(l, v, 65), PTO_OK);
            assert_int_equal(tile_get(l, 0, 0), a5 ? 2 : 0);
            assert_int_equal(pto_tshrs(r, v, 64), PTO_OK);
            assert_int_equal(tile_get(r, 0, 4), a5 ? 7 : 0);
            assert_int_equal(pto_tshl(c, v, c), PTO_OK);
            assert_int_equal(tile_get(c, 0, 1), a5 ? UINT64_C(0x8000000000000001) << 1 : 0);
            checked += 3;
            pto_tile_destroy(v), pto_tile_destroy(c), pto_tile_destroy(l), pto_tile_destroy(r);
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[bitwise] %zu 64-bit shift counts past the width, A5 mod 64\n", checked);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_values),
        cmocka_unit_test(test_shift_tails),
        cmocka_unit_test(test_integer_fmod),
        cmocka_unit_test(test_profile_rules),
        cmocka_unit_test(test_program_forms),
        cmocka_unit_test(test_a5_wide_shift_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
