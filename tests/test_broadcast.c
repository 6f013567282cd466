/* The broadcasts (pto_trowexpand*, pto_tcolexpand*) beyond what the generic
 * loops cover: Mode 1 and Mode 2 row operands, either source expanded, dst
 * in place on the full source and on the expanded one, the one-source
 * broadcasts' bit copies, NaN from either operand of max and min, the shape,
 * tmp and profile refusals, and *expdif's correct rounding: float32 against
 * MPFR over random pairs chosen around its thresholds (overflow, the
 * subnormal range, the last rounding to zero, large and tiny differences,
 * NaN and infinities), float16 and bfloat16 over a grid of operand pairs;
 * and a program in PTOAS's spelling whose per-row operand is a col_major
 * [16,1] tile. */
#include <inttypes.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const op_id kRowOps[] = {OP_TROWEXPANDADD, OP_TROWEXPANDSUB, OP_TROWEXPANDMUL,
                                OP_TROWEXPANDDIV, OP_TROWEXPANDMAX, OP_TROWEXPANDMIN,
                                OP_TROWEXPANDEXPDIF};
static const op_id kColOps[] = {OP_TCOLEXPANDADD, OP_TCOLEXPANDSUB, OP_TCOLEXPANDMUL,
                                OP_TCOLEXPANDMAX, OP_TCOLEXPANDMIN, OP_TCOLEXPANDEXPDIF};

/* The reference of dst(i, j): f(full, e) or f(e, full) by which source is
 * expanded. */
static uint64_t want_at(op_id op, pto_dtype dt, bool expanded_first, uint64_t full, uint64_t e) {
    return expanded_first ? op_reference(op, dt, e, full) : op_reference(op, dt, full, e);
}

static void fail_at(op_id op, pto_dtype dt, const char *what, size_t i, size_t j, uint64_t want,
                    uint64_t got) {
    fail_msg("%s %s (%s): (%zu,%zu) expected 0x%" PRIx64 " got 0x%" PRIx64, op_name(op), pto_dtype_string(dt),
             what, i, j, want, got);
}

static bool same_result(pto_dtype dt, uint64_t want, uint64_t got) {
    return want == got || (ref_is_nan(dt, want) && ref_is_nan(dt, got));
}

/* ---- both families: either source expanded, in place, row modes ---- */

enum { R = 5, C = 37 };

/* One call: dst R x C (valid R x C - 2, padded), the full source with two
 * spare columns, the expanded one in a padded tile: a row operand of valid
 * width `size` (1 or 32 bytes of elements), or a column operand of `size`
 * valid rows and two more valid columns than dst's (only row 0 and dst's
 * columns count); in_place: dst is the full source. */
static void broadcast_case(op_id op, pto_dtype dt, uint32_t size, bool expanded_first, bool in_place,
                           rng *r) {
    const bool row = op_row(op)->family == OP_FAMILY_ROW_EXPAND;
    const uint32_t vc = C - 2;
    pto_tile *dst = tile_new(dt, R, C, R, vc);
    pto_tile *full = in_place ? dst : tile_new(dt, R + 1, C + 2, R, vc);
    pto_tile *e = row ? tile_new(dt, R + 2, size + 3, R, size) : tile_new(dt, size + 1, C + 4, size, vc + 2);
    tile_fill(dst, r, GEN_ANY);
    if (!in_place) tile_fill(full, r, GEN_ANY);
    tile_fill(e, r, GEN_ANY);
    uint64_t *sd = tile_snapshot(dst), *sf = tile_snapshot(full), *se = tile_snapshot(e);
    const pto_status s = expanded_first ? op_call(op, PTO_POW_DEFAULT, dst, e, full, NULL)
                                        : op_call(op, PTO_POW_DEFAULT, dst, full, e, NULL);
    if (s != PTO_OK) fail_msg("%s %s size %u: %s", op_name(op), pto_dtype_string(dt), size, pto_last_error());
    const char *what = !row ? "column" : size == 1 ? "mode 1" : "mode 2";
    for (size_t i = 0; i < R; ++i)
        for (size_t j = 0; j < C; ++j) {
            const uint64_t got = tile_get(dst, i, j);
            if (j >= vc) {
                if (got != sd[i * C + j]) fail_at(op, dt, "outside written", i, j, sd[i * C + j], got);
                continue;
            }
            const uint64_t ev = row ? se[i * (size + 3) + (size == 1 ? 0 : j % size)] : se[j];
            const uint64_t want = want_at(op, dt, expanded_first, sf[i * pto_tile_cols(full) + j], ev);
            if (!same_result(dt, want, got)) fail_at(op, dt, what, i, j, want, got);
        }
    assert_tile_unchanged(e, se, "the expanded source");
    free(sd), free(sf), free(se);
    if (!in_place) pto_tile_destroy(full);
    pto_tile_destroy(e), pto_tile_destroy(dst);
}

static void rows_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target;
    rng r = {0xB40AD000u + target_index};
    for (size_t k = 0; k < COUNT(kRowOps); ++k)
        for (int dt = PTO_INT8; dt < TEST_DTYPE_COUNT; ++dt) {
            if (!op_accepts(kRowOps[k], PTO_PROFILE_HOST, (pto_dtype)dt)) continue;
            const uint32_t block = 32 / (uint32_t)pto_dtype_size((pto_dtype)dt);
            for (int first = 0; first <= 1; ++first)
                for (int in_place = 0; in_place <= 1; ++in_place) {
                    broadcast_case(kRowOps[k], (pto_dtype)dt, 1, first, in_place, &r);
                    broadcast_case(kRowOps[k], (pto_dtype)dt, block, first, in_place, &r);
                }
        }
}

static void test_row_modes(void **state) {
    (void)state;
    for_each_target("row broadcasts: modes 1 and 2, either source expanded, in place", rows_body, NULL);
}

static void cols_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target;
    rng r = {0xC0150000u + target_index};
    for (size_t k = 0; k < COUNT(kColOps); ++k)
        for (int dt = PTO_INT8; dt < TEST_DTYPE_COUNT; ++dt) {
            if (!op_accepts(kColOps[k], PTO_PROFILE_HOST, (pto_dtype)dt)) continue;
            for (int first = 0; first <= 1; ++first)
                for (int in_place = 0; in_place <= 1; ++in_place) {
                    broadcast_case(kColOps[k], (pto_dtype)dt, 1, first, in_place, &r);
                    broadcast_case(kColOps[k], (pto_dtype)dt, 3, first, in_place, &r);
                }
        }
}

static void test_col_forms(void **state) {
    (void)state;
    for_each_target("column broadcasts: either source expanded, in place", cols_body, NULL);
}

/* One handle as both sources is src0 = full, src1 = expanded: f(t[i,j],
 * t[0,j]), with dst apart and with dst that same handle (row 0 read before
 * it is written). */
static void test_one_handle_both_sources(void **state) {
    (void)state;
    rng r = {0x5A3E0001u};
    const op_id ops[] = {OP_TCOLEXPANDSUB, OP_TCOLEXPANDEXPDIF};
    for (size_t k = 0; k < COUNT(ops); ++k)
        for (int in_place = 0; in_place <= 1; ++in_place) {
            pto_tile *t = tile_new(PTO_FLOAT32, 4, 9, 4, 9);
            tile_fill(t, &r, GEN_ANY);
            pto_tile *dst = in_place ? t : tile_new(PTO_FLOAT32, 4, 9, 4, 9);
            uint64_t *st = tile_snapshot(t);
            assert_int_equal(op_call(ops[k], PTO_POW_DEFAULT, dst, t, t, NULL), PTO_OK);
            for (size_t i = 0; i < 4; ++i)
                for (size_t j = 0; j < 9; ++j) {
                    const uint32_t want = op_reference(ops[k], PTO_FLOAT32, st[i * 9 + j], st[j]);
                    const uint32_t got = tile_get(dst, i, j);
                    if (!same_result(PTO_FLOAT32, want, got))
                        fail_at(ops[k], PTO_FLOAT32, in_place ? "one handle, in place" : "one handle", i,
                                j, want, got);
                }
            free(st);
            if (!in_place) pto_tile_destroy(dst);
            pto_tile_destroy(t);
        }
}

/* ---- the one-source broadcasts copy bits; the expanded source on dst ---- */

static void test_expand_copies_bits(void **state) {
    (void)state;
    /* A signalling NaN with a payload, -0 and a subnormal survive the copy. */
    static const uint32_t kValues[] = {0x7F800001u, 0x80000000u, 0x00000001u, 0xFFC12345u, 0x3F800000u};
    pto_tile *src = tile_new(PTO_FLOAT32, 5, 3, 5, 1), *dst = tile_new(PTO_FLOAT32, 5, 40, 5, 39);
    for (size_t i = 0; i < 5; ++i) tile_put(src, i, 0, kValues[i]);
    assert_int_equal(pto_trowexpand(dst, src), PTO_OK);
    for (size_t i = 0; i < 5; ++i)
        for (size_t j = 0; j < 39; ++j) assert_int_equal(tile_get(dst, i, j), kValues[i]);
    pto_tile *row = tile_new(PTO_FLOAT32, 2, 5, 1, 5), *out = tile_new(PTO_FLOAT32, 9, 5, 9, 5);
    for (size_t j = 0; j < 5; ++j) tile_put(row, 0, j, kValues[j]);
    assert_int_equal(pto_tcolexpand(out, row), PTO_OK);
    for (size_t i = 0; i < 9; ++i)
        for (size_t j = 0; j < 5; ++j) assert_int_equal(tile_get(out, i, j), kValues[j]);
    /* In place: dst is its own source, row 0 (column 0) read before written. */
    for (size_t j = 0; j < 5; ++j) tile_put(out, 0, j, kValues[4 - j]);
    assert_int_equal(pto_tcolexpand(out, out), PTO_OK);
    for (size_t i = 0; i < 9; ++i)
        for (size_t j = 0; j < 5; ++j) assert_int_equal(tile_get(out, i, j), kValues[4 - j]);
    assert_int_equal(pto_trowexpand(dst, dst), PTO_OK);
    for (size_t i = 0; i < 5; ++i) assert_int_equal(tile_get(dst, i, 38), kValues[i]);
    /* dst as the Mode 2 operand of itself: f32 rows of 8 (src0 is the full
     * source, dst's own values the expanded block, read before written). */
    pto_tile *d8 = tile_new(PTO_FLOAT32, 3, 8, 3, 8), *s8 = tile_new(PTO_FLOAT32, 3, 8, 3, 8);
    for (size_t i = 0; i < 3; ++i)
        for (size_t j = 0; j < 8; ++j) {
            tile_put(d8, i, j, ref_from_double(PTO_FLOAT32, (double)(i * 8 + j)));
            tile_put(s8, i, j, ref_from_double(PTO_FLOAT32, 0.5));
        }
    assert_int_equal(pto_trowexpandmul(d8, s8, d8, NULL), PTO_OK);
    for (size_t i = 0; i < 3; ++i)
        for (size_t j = 0; j < 8; ++j)
            assert_int_equal(tile_get(d8, i, j), ref_from_double(PTO_FLOAT32, 0.5 * (double)(i * 8 + j)));
    pto_tile *all[] = {src, dst, row, out, d8, s8};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
}

/* ---- NaN through max and min, from either operand, either order ---- */

static void test_nan_propagation(void **state) {
    (void)state;
    const op_id ops[] = {OP_TROWEXPANDMAX, OP_TROWEXPANDMIN, OP_TCOLEXPANDMAX, OP_TCOLEXPANDMIN};
    const pto_dtype dts[] = {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16};
    const uint32_t nan[] = {0x7FC00000u, 0x7E00u, 0x7FC0u};
    for (size_t o = 0; o < COUNT(ops); ++o)
        for (size_t d = 0; d < COUNT(dts); ++d)
            for (int nan_in_expanded = 0; nan_in_expanded <= 1; ++nan_in_expanded)
                for (int first = 0; first <= 1; ++first) {
                    const bool row = op_row(ops[o])->family == OP_FAMILY_ROW_EXPAND;
                    pto_tile *dst = tile_new(dts[d], 4, 19, 4, 19), *full = tile_new(dts[d], 4, 19, 4, 19);
                    pto_tile *e = row ? tile_new(dts[d], 4, 1, 4, 1) : tile_new(dts[d], 1, 19, 1, 19);
                    const uint32_t one = ref_from_double(dts[d], 1.0);
                    for (size_t i = 0; i < 4; ++i)
                        for (size_t j = 0; j < 19; ++j) tile_put(full, i, j, nan_in_expanded ? one : nan[d]);
                    for (size_t k = 0; k < (row ? 4u : 19u); ++k)
                        tile_put(e, row ? k : 0, row ? 0 : k, nan_in_expanded ? nan[d] : one);
                    assert_int_equal(first ? op_call(ops[o], PTO_POW_DEFAULT, dst, e, full, NULL)
                                           : op_call(ops[o], PTO_POW_DEFAULT, dst, full, e, NULL),
                                     PTO_OK);
                    for (size_t i = 0; i < 4; ++i)
                        for (size_t j = 0; j < 19; ++j)
                            if (!ref_is_nan(dts[d], tile_get(dst, i, j)))
                                fail_msg("%s %s: NaN lost at (%zu,%zu) (NaN in the %s source, it %s)",
                                         op_name(ops[o]), pto_dtype_string(dts[d]), i, j,
                                         nan_in_expanded ? "expanded" : "full", first ? "first" : "second");
                    pto_tile_destroy(dst), pto_tile_destroy(full), pto_tile_destroy(e);
                }
}

/* ---- refusals ---- */

static void expect_refusal(pto_status got, pto_status want, const char *fn, const char *words) {
    if (got != want || strstr(pto_last_error(), fn) == NULL || strstr(pto_last_error(), words) == NULL)
        fail_msg("%s: %s \"%s\", expected %s naming \"%s\"", fn, pto_status_string(got), pto_last_error(),
                 pto_status_string(want), words);
}

static void test_shape_refusals(void **state) {
    (void)state;
    const pto_dtype f = PTO_FLOAT32;
    pto_tile *dst = tile_new(f, 6, 16, 6, 16), *full = tile_new(f, 6, 16, 6, 16);
    pto_tile *m1 = tile_new(f, 6, 16, 6, 1), *m2 = tile_new(f, 6, 16, 6, 8);
    pto_tile *bad_width = tile_new(f, 6, 16, 6, 4), *bad_rows = tile_new(f, 6, 16, 5, 1);
    pto_tile *neither = tile_new(f, 6, 16, 6, 15), *row0 = tile_new(f, 6, 16, 1, 16);
    pto_tile *narrow_row = tile_new(f, 6, 16, 1, 15), *no_rows = tile_new(f, 6, 16, 0, 16);
    pto_tile *small_tmp = tile_new(PTO_UINT8, 1, 255, 1, 255), *tmp = tile_new(PTO_UINT8, 1, 256, 1, 256);
    uint64_t *before = tile_snapshot(dst);
    expect_refusal(pto_trowexpandadd(dst, full, bad_width, NULL), PTO_ERR_SHAPE_MISMATCH,
                   "pto_trowexpandadd", "src1 valid cols 4 is neither 1");
    expect_refusal(pto_trowexpandadd(dst, bad_rows, full, NULL), PTO_ERR_SHAPE_MISMATCH,
                   "pto_trowexpandadd", "src0 valid rows 5");
    expect_refusal(pto_trowexpandmul(dst, neither, m1, NULL), PTO_ERR_SHAPE_MISMATCH,
                   "pto_trowexpandmul", "one source must cover dst");
    expect_refusal(pto_tcolexpandsub(dst, full, narrow_row, NULL), PTO_ERR_SHAPE_MISMATCH,
                   "pto_tcolexpandsub", "src1 valid cols 15");
    expect_refusal(pto_tcolexpandsub(dst, no_rows, full, NULL), PTO_ERR_SHAPE_MISMATCH,
                   "pto_tcolexpandsub", "no row 0");
    expect_refusal(pto_trowexpand(dst, bad_rows), PTO_ERR_SHAPE_MISMATCH, "pto_trowexpand",
                   "src valid rows 5");
    expect_refusal(pto_tcolexpand(dst, narrow_row), PTO_ERR_SHAPE_MISMATCH, "pto_tcolexpand",
                   "src valid cols 15");
    expect_refusal(pto_trowexpandadd(dst, full, m1, dst), PTO_ERR_ALIASING, "pto_trowexpandadd", "tmp");
    expect_refusal(pto_trowexpandadd(dst, full, NULL, NULL), PTO_ERR_NULL_ARGUMENT, "pto_trowexpandadd",
                   "src1");
    pto_tile *i32 = tile_new(PTO_INT32, 6, 16, 6, 1);
    expect_refusal(pto_trowexpandadd(dst, full, i32, NULL), PTO_ERR_DTYPE_MISMATCH, "pto_trowexpandadd",
                   "src1");
    pto_tile *i8 = tile_new(PTO_INT8, 6, 16, 6, 16);
    expect_refusal(pto_trowexpandexpdif(i8, i8, i8, NULL), PTO_ERR_UNSUPPORTED_DTYPE,
                   "pto_trowexpandexpdif", "INT8");
    /* A2A3: a tmp broadcasts one value per row, through ceil(6 / 8) = 1
     * repeat of 256 bytes; A5 ignores tmp. */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_refusal(pto_trowexpandadd(dst, full, m2, tmp), PTO_ERR_SHAPE_MISMATCH, "pto_trowexpandadd",
                   "on A2A3 a tmp broadcasts one value per row only");
    expect_refusal(pto_trowexpandadd(dst, full, m1, small_tmp), PTO_ERR_SHAPE_MISMATCH,
                   "pto_trowexpandadd", "tmp holds 255 bytes");
    expect_refusal(pto_trowexpandadd(i8, i8, i8, NULL), PTO_ERR_UNSUPPORTED_DTYPE, "pto_trowexpandadd",
                   "A2A3");
    assert_tile_unchanged(dst, before, "dst of refused calls");
    assert_int_equal(pto_trowexpandadd(dst, full, m1, tmp), PTO_OK);
    assert_int_equal(pto_trowexpandadd(dst, full, m2, NULL), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_trowexpandadd(dst, full, m2, small_tmp), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_int_equal(pto_tcolexpandadd(dst, row0, full, small_tmp), PTO_OK);
    free(before);
    pto_tile *all[] = {dst, full, m1, m2, bad_width, bad_rows, neither, row0, narrow_row, no_rows,
                       small_tmp, tmp, i32, i8};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
}

/* ---- *expdif: correctly rounded e^(a - b) ---- */

/* The exact e^(a - b) of two values of dt, rounded once to dt by MPFR: the
 * difference exact at 320 bits (two float32 values span at most 277), e^t
 * at 160 bits, then rounded to odd at 53 bits (more than p + 2 of every
 * dtype, so that rounding that double to dt is the correct rounding). */
static uint32_t mpfr_expdif(pto_dtype dt, uint32_t a, uint32_t b) {
    const double x = ref_to_double(dt, a), y = ref_to_double(dt, b);
    mpfr_t ma, mb, t, e;
    mpfr_inits2(320, ma, mb, t, (mpfr_ptr)0);
    mpfr_init2(e, 160);
    mpfr_set_d(ma, x, MPFR_RNDN);
    mpfr_set_d(mb, y, MPFR_RNDN);
    mpfr_sub(t, ma, mb, MPFR_RNDN);
    mpfr_exp(e, t, MPFR_RNDN);
    double d = mpfr_get_d(e, MPFR_RNDZ);
    if (isfinite(d) && mpfr_cmp_d(e, d) != 0) {
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        bits |= 1;
        memcpy(&d, &bits, sizeof bits);
    }
    mpfr_clears(ma, mb, t, e, (mpfr_ptr)0);
    return ref_from_double(dt, d);
}

/* float32 pairs by kind: a difference near a threshold of e^t (88.72:
 * overflow; -87.34: subnormal results; -103.28 and -103.97: the last
 * rounding to the smallest subnormal and to zero), moderate operands, a
 * large operand with a tiny one, huge operands of any sign, and specials. */
static void f32_pair(rng *r, uint32_t *a, uint32_t *b) {
    static const double kThresholds[] = {88.7228394, -87.3365479, -103.2789307, -103.9720770, 0.0};
    const int kind = (int)rng_below(r, 8);
    float x, y;
    switch (kind) {
    case 0:
    case 1: { /* a - b near a threshold: b of any size, a = b + t, rounded */
        const double t = kThresholds[rng_below(r, COUNT(kThresholds))] + rng_uniform(r, -1e-4, 1e-4);
        y = (float)ldexp(rng_uniform(r, -1, 1), (int)rng_between(r, -30, 20));
        x = (float)((double)y + t);
        break;
    }
    case 2: x = (float)rng_uniform(r, -120, 120), y = (float)rng_uniform(r, -20, 20); break;
    case 3: /* a tiny b beside a moderate a: the difference needs more than 24 bits */
        x = (float)rng_uniform(r, -90, 90);
        y = (float)ldexp(rng_uniform(r, -1, 1), (int)rng_between(r, -149, -20));
        break;
    case 4: x = (float)ldexp(rng_uniform(r, -1, 1), (int)rng_between(r, -149, 0)), y = (float)rng_uniform(r, -1, 1); break;
    case 5: { /* any bits */
        const uint32_t p = (uint32_t)rng_next(r), q = (uint32_t)rng_next(r);
        memcpy(&x, &p, 4), memcpy(&y, &q, 4);
        break;
    }
    case 6: { /* a specials row of float_specials against anything */
        uint64_t s[16];
        const size_t n = float_specials(PTO_FLOAT32, s);
        const uint32_t p = s[rng_below(r, (uint32_t)n)], q = gen_value(r, PTO_FLOAT32, GEN_ANY);
        if (rng_below(r, 2)) memcpy(&x, &p, 4), memcpy(&y, &q, 4);
        else memcpy(&x, &q, 4), memcpy(&y, &p, 4);
        break;
    }
    default: /* close operands: e^t near 1 */
        y = (float)rng_uniform(r, -100, 100);
        x = nextafterf(y, (float)rng_uniform(r, -200, 200));
        if (rng_below(r, 2)) x = nextafterf(x, 0);
        break;
    }
    memcpy(a, &x, 4), memcpy(b, &y, 4);
}

typedef struct {
    pto_dtype dt;
    size_t n;
    uint32_t *a, *b, *want;
    pto_profile profile; /* HOST: e^(a - b) exact; A2A3, A5: e^(round(a - b)) */
} expdif_set;

/* Under A2A3 and A5 the NPU's sequence (../shared/API.md, v0.5): a - b
 * rounded to dt (float32: the IEEE float subtraction; float16: the exact
 * double difference rounded once), then e^d correctly rounded. */
static uint32_t npu_expdif(pto_dtype dt, uint32_t a, uint32_t b) {
    uint32_t d;
    if (dt == PTO_FLOAT32) {
        float x, y, z;
        memcpy(&x, &a, 4), memcpy(&y, &b, 4);
        z = x - y;
        memcpy(&d, &z, 4);
    } else {
        d = ref_from_double(dt, ref_to_double(dt, a) - ref_to_double(dt, b));
    }
    return mpfr_expdif(dt, d, 0);
}

/* dst = e^(a - b) through both families (a 1 x n column broadcast, and an
 * n x 1 row broadcast with b as the Mode 1 operand, and with a expanded:
 * e^(a - b) keeps its order). */
static void expdif_body(void *ctx, size_t target_index, const char *target) {
    (void)target_index;
    const expdif_set *s = ctx;
    const uint32_t n = (uint32_t)s->n;
    assert_int_equal(pto_set_profile(s->profile), PTO_OK);
    pto_tile *a = tile_new(s->dt, 1, n, 1, n), *b = tile_new(s->dt, 1, n, 1, n), *d = tile_new(s->dt, 1, n, 1, n);
    pto_tile *ac = tile_new(s->dt, n, 1, n, 1), *bc = tile_new(s->dt, n, 1, n, 1), *dc = tile_new(s->dt, n, 1, n, 1);
    pto_tile *dw = tile_new(s->dt, n, 3, n, 3), *aw = tile_new(s->dt, n, 3, n, 3);
    for (uint32_t k = 0; k < n; ++k) {
        tile_put(a, 0, k, s->a[k]), tile_put(b, 0, k, s->b[k]);
        tile_put(ac, k, 0, s->a[k]), tile_put(bc, k, 0, s->b[k]);
        for (uint32_t j = 0; j < 3; ++j) tile_put(aw, k, j, s->a[k]);
    }
    assert_int_equal(pto_tcolexpandexpdif(d, a, b, NULL), PTO_OK);
    assert_int_equal(pto_trowexpandexpdif(dc, ac, bc, NULL), PTO_OK);
    assert_int_equal(pto_trowexpandexpdif(dw, aw, bc, NULL), PTO_OK);
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t got[3] = {tile_get(d, 0, k), tile_get(dc, k, 0), tile_get(dw, k, 2)};
        for (int v = 0; v < 3; ++v)
            if (!same_result(s->dt, s->want[k], got[v]))
                fail_msg("%s expdif on %s (call %d): e^(0x%x - 0x%x) = e^(%.17g - %.17g): expected 0x%x, got 0x%x",
                         pto_dtype_string(s->dt), target, v, s->a[k], s->b[k], ref_to_double(s->dt, s->a[k]),
                         ref_to_double(s->dt, s->b[k]), s->want[k], got[v]);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile *all[] = {a, b, d, ac, bc, dc, dw, aw};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
}

static void run_expdif_set(expdif_set *s, const char *name) {
    s->want = malloc(s->n * sizeof(uint32_t));
    assert_non_null(s->want);
    for (size_t k = 0; k < s->n; ++k)
        s->want[k] = s->profile == PTO_PROFILE_HOST ? mpfr_expdif(s->dt, s->a[k], s->b[k])
                                                    : npu_expdif(s->dt, s->a[k], s->b[k]);
    for_each_target(name, expdif_body, s);
    free(s->want);
}

static void test_expdif_f32(void **state) {
    (void)state;
    expdif_set s = {PTO_FLOAT32, under_emulation() ? 1024 : 60000, NULL, NULL, NULL, PTO_PROFILE_HOST};
    s.a = malloc(s.n * 4), s.b = malloc(s.n * 4);
    assert_true(s.a && s.b);
    rng r = {0xE4D1F000u};
    for (size_t k = 0; k < s.n; ++k) f32_pair(&r, &s.a[k], &s.b[k]);
    run_expdif_set(&s, "expdif float32 against MPFR");
    print_message("[broadcast] expdif float32: %zu pairs correctly rounded on every target\n", s.n);
    s.profile = PTO_PROFILE_A5;
    run_expdif_set(&s, "expdif float32 under A5: the difference rounded first");
    print_message("[broadcast] expdif float32 under A5: %zu pairs equal e^(a - b rounded to float32) "
                  "correctly rounded\n", s.n);
    free(s.a), free(s.b);
}

/* float16 and bfloat16: every third bit pattern of the type as a (every 61st
 * under emulation: a sample), against a set of b values (zeros, the
 * smallest subnormal, small and moderate values, values near e^t's
 * overflow and underflow thresholds, infinities, NaN). */
static void expdif_grid(pto_dtype dt, pto_profile profile) {
    const double kB[] = {0.0, -0.0, 1.0, -1.0, 0.5, 3.140625, -7.25, 10.0, -11.0, 11.5, 17.0, -17.0, 24.0,
                         -24.5, 60.0, -88.0, 100.0, 1e-3, -2e-2, 1e-7};
    uint32_t bs[32];
    size_t nb = 0;
    for (size_t k = 0; k < COUNT(kB); ++k) bs[nb++] = ref_from_double(dt, kB[k]);
    bs[nb++] = 1;                                     /* smallest subnormal */
    bs[nb++] = dt == PTO_FLOAT16 ? 0x7C00u : 0x7F80u; /* +inf */
    bs[nb++] = dt == PTO_FLOAT16 ? 0xFC00u : 0xFF80u; /* -inf */
    bs[nb++] = dt == PTO_FLOAT16 ? 0x7E00u : 0x7FC0u; /* NaN */
    const uint32_t step = under_emulation() ? 61 : 3;
    size_t na = 0;
    for (uint32_t v = 0; v < 65536; v += step) na += !ref_is_nan(dt, v);
    expdif_set s = {dt, na * nb, malloc(na * nb * 4), malloc(na * nb * 4), NULL, profile};
    assert_true(s.a && s.b);
    size_t k = 0;
    for (uint32_t v = 0; v < 65536; v += step) {
        if (ref_is_nan(dt, v)) continue;
        for (size_t kb = 0; kb < nb; ++kb) s.a[k] = v, s.b[k++] = bs[kb];
    }
    char name[96];
    snprintf(name, sizeof name, "expdif %s grid under %s", pto_dtype_string(dt), pto_profile_string(profile));
    run_expdif_set(&s, name);
    print_message("[broadcast] expdif %s under %s: %zu pairs equal %s correctly rounded on every target\n",
                  pto_dtype_string(dt), pto_profile_string(profile), s.n,
                  profile == PTO_PROFILE_HOST ? "e^(a - b)" : "e^(a - b rounded to the dtype)");
    free(s.a), free(s.b);
}

static void test_expdif_f16(void **state) {
    (void)state;
    expdif_grid(PTO_FLOAT16, PTO_PROFILE_HOST);
    expdif_grid(PTO_FLOAT16, PTO_PROFILE_A2A3);
    expdif_grid(PTO_FLOAT16, PTO_PROFILE_A5);
}

static void test_expdif_bf16(void **state) {
    (void)state;
    expdif_grid(PTO_BFLOAT16, PTO_PROFILE_HOST);
}

/* ---- a program in PTOAS's spelling: a col_major [16,1] per-row operand ---- */

#define T128 "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=128, v_row=16, v_col=128, " \
             "blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define T1(cols) "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=" cols ", v_row=16, v_col=1, " \
                 "blayout=col_major, slayout=none_box, fractal=512, pad=0>"
#define SOFTMAX_STEP(cols)                                                                           \
    "module {\n"                                                                                     \
    "  func.func @k(%x: !pto.ptr<f32>, %m: !pto.ptr<f32>, %y: !pto.ptr<f32>) {\n"                    \
    "  %c16 = arith.constant 16 : index\n  %c128 = arith.constant 128 : index\n"                     \
    "  %c1 = arith.constant 1 : index\n  %c0 = arith.constant 0 : index\n"                           \
    "  %xv = pto.make_tensor_view %x, shape = [%c16, %c128], strides = [%c128, %c1] : "              \
    "!pto.tensor_view<?x?xf32>\n"                                                                    \
    "  %mv = pto.make_tensor_view %m, shape = [%c16, %c1], strides = [%c1, %c1] : "                  \
    "!pto.tensor_view<?x?xf32>\n"                                                                    \
    "  %yv = pto.make_tensor_view %y, shape = [%c16, %c128], strides = [%c128, %c1] : "              \
    "!pto.tensor_view<?x?xf32>\n"                                                                    \
    "  %t = pto.alloc_tile : " T128 "\n  %r = pto.alloc_tile : " T1(cols) "\n"                      \
    "  %xp = pto.partition_view %xv, offsets = [%c0, %c0], sizes = [%c16, %c128] : "                 \
    "!pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x128xf32>\n"                          \
    "  %mp = pto.partition_view %mv, offsets = [%c0, %c0], sizes = [%c16, %c1] : "                   \
    "!pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x1xf32>\n"                            \
    "  %yp = pto.partition_view %yv, offsets = [%c0, %c0], sizes = [%c16, %c128] : "                 \
    "!pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x128xf32>\n"                          \
    "  pto.tload ins(%xp : !pto.partition_tensor_view<16x128xf32>) outs(%t : " T128 ")\n"           \
    "  pto.tload ins(%mp : !pto.partition_tensor_view<16x1xf32>) outs(%r : " T1(cols) ")\n"         \
    "  pto.trowexpandexpdif ins(%t, %r : " T128 ", " T1(cols) ") outs(%t : " T128 ")\n"             \
    "  pto.tstore ins(%t : " T128 ") outs(%yp : !pto.partition_tensor_view<16x128xf32>)\n"         \
    "  return\n  }\n}\n"

static void test_program_col_major_operand(void **state) {
    (void)state;
    static const char kText[] = SOFTMAX_STEP("1");
    pto_program *p = NULL;
    if (pto_program_create(kText, strlen(kText), "softmax.pto", &p) != PTO_OK) fail_msg("%s", pto_last_error());
    float x[16 * 128], m[16], y[16 * 128];
    rng r = {0x50F7};
    for (size_t i = 0; i < 16 * 128; ++i) x[i] = (float)rng_uniform(&r, -30, 30);
    for (size_t i = 0; i < 16; ++i) m[i] = (float)rng_uniform(&r, -30, 30);
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, x, sizeof x), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 1, m, sizeof m), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 2, y, sizeof y), PTO_OK);
    if (pto_program_launch(p, 1, a) != PTO_OK) fail_msg("%s", pto_last_error());
    for (size_t i = 0; i < 16; ++i)
        for (size_t j = 0; j < 128; ++j) {
            uint32_t xa, mb, got;
            memcpy(&xa, &x[i * 128 + j], 4), memcpy(&mb, &m[i], 4), memcpy(&got, &y[i * 128 + j], 4);
            const uint32_t want = mpfr_expdif(PTO_FLOAT32, xa, mb);
            if (want != got) fail_msg("program (%zu,%zu): expected 0x%x got 0x%x", i, j, want, got);
        }
    pto_args_destroy(a);
    pto_program_destroy(p);
    /* col_major is a row-major tile's layout only with one column or one row. */
    static const char kWide[] = SOFTMAX_STEP("2");
    assert_int_not_equal(pto_program_create(kWide, strlen(kWide), "wide.pto", &p), PTO_OK);
    assert_non_null(strstr(pto_last_error(), "blayout=col_major is supported for tiles of one column or one row"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_modes),         cmocka_unit_test(test_col_forms),
        cmocka_unit_test(test_one_handle_both_sources),
        cmocka_unit_test(test_expand_copies_bits), cmocka_unit_test(test_nan_propagation),
        cmocka_unit_test(test_shape_refusals),    cmocka_unit_test(test_expdif_f32),
        cmocka_unit_test(test_expdif_f16),        cmocka_unit_test(test_expdif_bf16),
        cmocka_unit_test(test_program_col_major_operand),
    };
    return cmocka_run_group_tests_name("broadcast", tests, NULL, NULL);
}
