/* The reductions (TROWSUM ... TCOLMIN): hand-computed cases that tell the
 * orders apart, every (operation, dtype, profile) against the order
 * reference of tests/support/reduce_ref.c bit for bit on every SIMD target,
 * float sums against a double-precision sum within the bound their order
 * implies, NaN and signed zeros, the smallest and a maximal shape, a
 * program on several blocks against one block, and the refusals. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
static const op_id kReductions[] = {OP_TROWSUM, OP_TROWMAX, OP_TROWMIN, OP_TROWPROD,
                                    OP_TCOLSUM, OP_TCOLMAX, OP_TCOLMIN, OP_TCOLPROD};

static bool by_row(op_id op) { return op_row(op)->family == OP_FAMILY_ROW_REDUCE; }

static uint32_t f32_bits(float f) {
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* A tmp every profile accepts for src (rows x cols valid, dt). */
static pto_tile *tmp_for(pto_dtype dt, uint32_t rows, uint32_t cols) {
    const uint32_t r = rows < 1 ? 1 : rows, c = cols < 64 ? 64 : cols;
    return tile_new(dt, r, c, r, c);
}

/* op on src (given as bits, rows x cols) under profile; out gets the
 * results (rows for a row reduction, cols for a column one). */
static void run_reduction(op_id op, pto_profile profile, int binary, pto_dtype dt,
                          const uint64_t *bits, uint32_t rows, uint32_t cols, uint64_t *out) {
    pto_tile *src = tile_new(dt, rows, cols, rows, cols);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) tile_put(src, i, j, bits[(size_t)i * cols + j]);
    pto_tile *dst = by_row(op) ? tile_new(dt, rows, 1, rows, 1) : tile_new(dt, 1, cols, 1, cols);
    pto_tile *tmp = tmp_for(dt, rows, cols);
    assert_int_equal(pto_set_profile(profile), PTO_OK);
    const pto_status s = op_call(op, (pto_pow_algorithm)binary, dst, src, NULL, tmp);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    if (s != PTO_OK) fail_msg("%s: %s", op_name(op), pto_last_error());
    const uint32_t n = by_row(op) ? rows : cols;
    for (uint32_t k = 0; k < n; ++k) out[k] = by_row(op) ? tile_get(dst, k, 0) : tile_get(dst, 0, k);
    pto_tile_destroy(src);
    pto_tile_destroy(dst);
    pto_tile_destroy(tmp);
}

static uint64_t one_result(op_id op, pto_profile profile, int binary, pto_dtype dt,
                           const uint64_t *bits, uint32_t rows, uint32_t cols) {
    uint64_t *out = malloc(sizeof(uint64_t) * (rows > cols ? rows : cols));
    run_reduction(op, profile, binary, dt, bits, rows, cols, out);
    const uint64_t v = out[0];
    free(out);
    return v;
}

/* ---- hand-computed cases that tell the orders apart ---- */

static void test_orders_by_hand(void **state) {
    (void)state;
    const uint32_t one = f32_bits(1.0f), tiny = f32_bits(0x1p-24f), zero = 0;
    const uint32_t one_up = f32_bits(1.0f + 0x1p-23f); /* 0x3F800001 */
    /* Four elements: vcadd adds (x0 + x1) + (x2 + x3) = 1 + 2^-23; left to
     * right would give 1 (each 1 + 2^-24 ties to even). */
    const uint64_t four[] = {one, zero, tiny, tiny};
    for (size_t p = 0; p < COUNT(kProfiles); ++p)
        assert_int_equal(one_result(OP_TROWSUM, kProfiles[p], 0, PTO_FLOAT32, four, 1, 4), one_up);

    /* Products: with x0 = 1 + 19 2^-23, x1 = 1 - 2^-22, x2 = 1 - 33 2^-24,
     * (x0 x2) x1 = 0x1.ffffc8p-1 but (x0 x1) x2 = 0x1.ffffcap-1. A row of
     * three: A5's halving multiplies lane 0 by lane 2 first, A2A3's scalar
     * loop goes left to right. A column x1, x0, x2: A5 takes row 0 times
     * (row 1 row 2), A2A3 row after row. */
    const uint64_t x0 = f32_bits(0x1.000026p+0f), x1 = f32_bits(0x1.ffffcp-1f), x2 = f32_bits(0x1.ffffbep-1f);
    const uint64_t halved = f32_bits(0x1.ffffc8p-1f), in_turn = f32_bits(0x1.ffffcap-1f);
    const uint64_t prow[] = {x0, x1, x2}, pcol[] = {x1, x0, x2};
    assert_int_equal(one_result(OP_TROWPROD, PTO_PROFILE_A5, 0, PTO_FLOAT32, prow, 1, 3), halved);
    assert_int_equal(one_result(OP_TROWPROD, PTO_PROFILE_HOST, 0, PTO_FLOAT32, prow, 1, 3), halved);
    assert_int_equal(one_result(OP_TROWPROD, PTO_PROFILE_A2A3, 0, PTO_FLOAT32, prow, 1, 3), in_turn);
    assert_int_equal(one_result(OP_TCOLPROD, PTO_PROFILE_A5, 0, PTO_FLOAT32, pcol, 3, 1), halved);
    assert_int_equal(one_result(OP_TCOLPROD, PTO_PROFILE_HOST, 0, PTO_FLOAT32, pcol, 3, 1), halved);
    assert_int_equal(one_result(OP_TCOLPROD, PTO_PROFILE_A2A3, 0, PTO_FLOAT32, pcol, 3, 1), in_turn);
    /* FLOAT16: 256 x 256 x 2^-16. A2A3 multiplies its row's lanes in float,
     * rounded once: 1; A5 halves, (256 x 2^-16) x 256: 1; a column under
     * A2A3 goes row after row in float16: 256 x 256 overflows to +inf. */
    const uint64_t h256 = ref_from_double(PTO_FLOAT16, 256), hsmall = ref_from_double(PTO_FLOAT16, 0x1p-16);
    const uint64_t hrow[] = {h256, h256, hsmall};
    assert_int_equal(one_result(OP_TROWPROD, PTO_PROFILE_A2A3, 0, PTO_FLOAT16, hrow, 1, 3),
                     ref_from_double(PTO_FLOAT16, 1.0));
    assert_int_equal(one_result(OP_TROWPROD, PTO_PROFILE_A5, 0, PTO_FLOAT16, hrow, 1, 3),
                     ref_from_double(PTO_FLOAT16, 1.0));
    const uint64_t hcol[] = {h256, h256, hsmall};
    assert_int_equal(one_result(OP_TCOLPROD, PTO_PROFILE_A2A3, 0, PTO_FLOAT16, hcol, 3, 1), 0x7C00);

    /* Three 64-element chunks: A5 adds the chunks' vcadds in turn (1, then
     * + 2^-24 twice: 1); A2A3 adds the chunks lane by lane first (lane 1:
     * 2^-23) and vcadds the result: 1 + 2^-23. */
    uint64_t row[192] = {0};
    row[0] = one;
    row[64 + 1] = tiny;
    row[128 + 1] = tiny;
    assert_int_equal(one_result(OP_TROWSUM, PTO_PROFILE_A5, 0, PTO_FLOAT32, row, 1, 192), one);
    assert_int_equal(one_result(OP_TROWSUM, PTO_PROFILE_HOST, 0, PTO_FLOAT32, row, 1, 192), one);
    assert_int_equal(one_result(OP_TROWSUM, PTO_PROFILE_A2A3, 0, PTO_FLOAT32, row, 1, 192), one_up);

    /* FLOAT16 sums accumulate in FLOAT16: 2048 + 1 ties to 2048, and so does
     * 2048 + 1 again (float32 accumulation would give 2050); 65504 + 65504
     * overflows to +inf, which - 65504 leaves at +inf. */
    const uint32_t h2048 = 0x6800, h1 = 0x3C00, hmax = 0x7BFF, hmaxneg = 0xFBFF;
    const uint64_t h_three[] = {h2048, h1, h1};
    for (size_t p = 0; p < COUNT(kProfiles); ++p)
        assert_int_equal(one_result(OP_TROWSUM, kProfiles[p], 0, PTO_FLOAT16, h_three, 1, 3), h2048);
    const uint64_t h_over[] = {hmax, hmax, hmaxneg};
    assert_int_equal(one_result(OP_TROWSUM, PTO_PROFILE_HOST, 0, PTO_FLOAT16, h_over, 1, 3), 0x7C00);

    /* Column sums of four rows 1, 2^-24, 2^-24, 0: A5's isBinary = false adds
     * row 0 and the pair (r1 + r2) = 2^-23: 1 + 2^-23; A2A3's adds row after
     * row: 1; the binary trees (1 + 2^-24) + (2^-24 + 0): 1. */
    const uint64_t col4[] = {one, tiny, tiny, zero};
    assert_int_equal(one_result(OP_TCOLSUM, PTO_PROFILE_A5, 0, PTO_FLOAT32, col4, 4, 1), one_up);
    assert_int_equal(one_result(OP_TCOLSUM, PTO_PROFILE_HOST, 0, PTO_FLOAT32, col4, 4, 1), one_up);
    assert_int_equal(one_result(OP_TCOLSUM, PTO_PROFILE_A2A3, 0, PTO_FLOAT32, col4, 4, 1), one);
    for (size_t p = 0; p < COUNT(kProfiles); ++p)
        assert_int_equal(one_result(OP_TCOLSUM, kProfiles[p], 1, PTO_FLOAT32, col4, 4, 1), one);
    /* Five rows 1, 0, 2^-24, 0, 2^-24, binary: A5 folds the odd row 4 into
     * the last pair (2^-24 + 2^-24), A2A3 into the first (1 + 2^-24). */
    const uint64_t col5[] = {one, zero, tiny, zero, tiny};
    assert_int_equal(one_result(OP_TCOLSUM, PTO_PROFILE_A5, 1, PTO_FLOAT32, col5, 5, 1), one_up);
    assert_int_equal(one_result(OP_TCOLSUM, PTO_PROFILE_A2A3, 1, PTO_FLOAT32, col5, 5, 1), one);

    /* Signed zeros: A5's row accumulator starts at +0, so a row of -0 sums to
     * +0; one row's binary column sum is that row + 0 on A5, the row itself
     * on A2A3; the sequential column sum of one row is the row. */
    const uint32_t negz = 0x80000000u;
    const uint64_t negzs[] = {negz, negz};
    assert_int_equal(one_result(OP_TROWSUM, PTO_PROFILE_A5, 0, PTO_FLOAT32, negzs, 1, 2), 0);
    assert_int_equal(one_result(OP_TCOLSUM, PTO_PROFILE_A5, 1, PTO_FLOAT32, negzs, 1, 2), 0);
    assert_int_equal(one_result(OP_TCOLSUM, PTO_PROFILE_A2A3, 1, PTO_FLOAT32, negzs, 1, 2), negz);
    assert_int_equal(one_result(OP_TCOLSUM, PTO_PROFILE_A5, 0, PTO_FLOAT32, negzs, 1, 2), negz);
    assert_int_equal(one_result(OP_TCOLSUM, PTO_PROFILE_A5, 0, PTO_FLOAT32, negzs, 2, 1), negz);

    /* Max and min: -0 < +0 whatever the order; NaN wins and is the default NaN. */
    const uint64_t zeros[] = {negz, 0, negz};
    assert_int_equal(one_result(OP_TROWMAX, PTO_PROFILE_HOST, 0, PTO_FLOAT32, zeros, 1, 3), 0);
    assert_int_equal(one_result(OP_TROWMIN, PTO_PROFILE_HOST, 0, PTO_FLOAT32, zeros, 1, 3), negz);
    assert_int_equal(one_result(OP_TCOLMAX, PTO_PROFILE_HOST, 0, PTO_FLOAT32, zeros, 3, 1), 0);
    assert_int_equal(one_result(OP_TCOLMIN, PTO_PROFILE_HOST, 0, PTO_FLOAT32, zeros, 3, 1), negz);
    const uint64_t with_nan[] = {one, 0xFF800123u /* -NaN with a payload */, f32_bits(INFINITY)};
    for (size_t k = 0; k < COUNT(kReductions); ++k) {
        const op_id op = kReductions[k];
        const uint32_t got = by_row(op) ? one_result(op, PTO_PROFILE_HOST, 0, PTO_FLOAT32, with_nan, 1, 3)
                                        : one_result(op, PTO_PROFILE_HOST, 0, PTO_FLOAT32, with_nan, 3, 1);
        assert_int_equal(got, 0x7FC00000u);
    }
    /* +inf + -inf: NaN, the default one. */
    const uint64_t infs[] = {f32_bits(INFINITY), f32_bits(-INFINITY)};
    assert_int_equal(one_result(OP_TROWSUM, PTO_PROFILE_HOST, 0, PTO_FLOAT32, infs, 1, 2), 0x7FC00000u);
    /* FLOAT16 NaN: 0x7E00. */
    const uint64_t hnan[] = {0x3C00, 0xFE01};
    assert_int_equal(one_result(OP_TROWMAX, PTO_PROFILE_HOST, 0, PTO_FLOAT16, hnan, 1, 2), 0x7E00);
    assert_int_equal(one_result(OP_TCOLSUM, PTO_PROFILE_HOST, 0, PTO_FLOAT16, hnan, 2, 1), 0x7E00);
    /* Integers wrap: INT16 32767 + 1 = -32768; UINT8 column 255 + 2 = 1. */
    const uint64_t i16[] = {0x7FFF, 1};
    assert_int_equal(one_result(OP_TROWSUM, PTO_PROFILE_HOST, 0, PTO_INT16, i16, 1, 2), 0x8000);
    const uint64_t u8[] = {255, 2};
    assert_int_equal(one_result(OP_TCOLSUM, PTO_PROFILE_HOST, 0, PTO_UINT8, u8, 2, 1), 1);
    /* 1x1: the element itself (a sum's -0 becomes +0 under A5's row order). */
    const uint64_t single[] = {f32_bits(-3.5f)};
    for (size_t k = 0; k < COUNT(kReductions); ++k)
        assert_int_equal(one_result(kReductions[k], PTO_PROFILE_HOST, 0, PTO_FLOAT32, single, 1, 1),
                         single[0]);
}

/* ---- every dtype and profile against the order reference, every target ---- */

typedef struct {
    uint32_t rows, cols;
} shape;
static const shape kShapes[] = {{1, 1}, {1, 3}, {3, 1}, {2, 64}, {5, 65}, {7, 129},
                                {4, 192}, {3, 300}, {11, 20}, {23, 7}, {45, 3}, {17, 31},
                                {9, 513}, {33, 16}, {64, 64}};

typedef struct {
    uint64_t *first; /* the first target's results, to compare the others with */
    size_t first_count;
} targets_ctx;

static void reference_body(void *ctx_, size_t target_index, const char *target) {
    targets_ctx *ctx = ctx_;
    rng r = {7};
    size_t at = 0;
    const size_t shapes = under_emulation() ? 6 : COUNT(kShapes);
    for (size_t k = 0; k < COUNT(kReductions); ++k) {
        const op_id op = kReductions[k];
        for (int dt = 0; dt < TEST_DTYPE_COUNT; ++dt) {
            for (size_t p = 0; p < COUNT(kProfiles); ++p) {
                if (!op_accepts(op, kProfiles[p], (pto_dtype)dt)) continue;
                for (int binary = 0; binary <= (op == OP_TCOLSUM); ++binary) {
                    for (size_t s = 0; s < shapes; ++s) {
                        const uint32_t rows = kShapes[s].rows, cols = kShapes[s].cols;
                        uint64_t *bits = malloc(sizeof(uint64_t) * rows * cols);
                        for (size_t i = 0; i < (size_t)rows * cols; ++i)
                            bits[i] = gen_value(&r, (pto_dtype)dt, GEN_ANY);
                        const size_t n = by_row(op) ? rows : cols;
                        uint64_t *got = malloc(sizeof(uint64_t) * n), *want = malloc(sizeof(uint64_t) * n);
                        run_reduction(op, kProfiles[p], binary, (pto_dtype)dt, bits, rows, cols, got);
                        /* The reference reads the source through its bits. */
                        pto_tile *src = tile_new((pto_dtype)dt, rows, cols, rows, cols);
                        for (uint32_t i = 0; i < rows; ++i)
                            for (uint32_t j = 0; j < cols; ++j) tile_put(src, i, j, bits[(size_t)i * cols + j]);
                        op_reduce_reference(op, kProfiles[p], binary, (pto_dtype)dt, pto_tile_data(src),
                                            rows, cols, cols, want);
                        pto_tile_destroy(src);
                        for (size_t i = 0; i < n; ++i) {
                            if (got[i] != want[i])
                                fail_msg("%s %s %s binary %d %ux%u target %s: result %zu is 0x%" PRIx64 ", the "
                                         "order gives 0x%" PRIx64,
                                         op_name(op), pto_dtype_string((pto_dtype)dt),
                                         pto_profile_string(kProfiles[p]), binary, rows, cols, target, i,
                                         got[i], want[i]);
                            if (target_index == 0) {
                                ctx->first = realloc(ctx->first, sizeof(uint64_t) * (at + 1));
                                ctx->first[at] = got[i];
                                ctx->first_count = at + 1;
                            } else if (at >= ctx->first_count || ctx->first[at] != got[i]) {
                                fail_msg("%s on %s differs from the first target", op_name(op), target);
                            }
                            ++at;
                        }
                        free(bits), free(got), free(want);
                    }
                }
            }
        }
    }
}

static void test_against_order_reference(void **state) {
    (void)state;
    targets_ctx ctx = {NULL, 0};
    for_each_target("reductions against their order, bit for bit", reference_body, &ctx);
    free(ctx.first);
}

/* ---- the bound each order implies ---- */

/* A float32 sum whose every element passes through at most `depth` rounded
 * additions is within gamma(depth) * sum|x| of the exact sum, gamma(d) =
 * d u / (1 - d u), u = 2^-24 (Higham, Accuracy and Stability of Numerical
 * Algorithms, 4.2): each partial sum's rounding is at most u times its own
 * magnitude. The count elements of bits, stride apart, against got. */
static void check_bound(const char *what, const uint64_t *bits, size_t count, size_t stride,
                        uint64_t got, double depth) {
    double exact = 0, mag = 0;
    for (size_t k = 0; k < count; ++k) {
        const double x = ref_to_double(PTO_FLOAT32, bits[k * stride]);
        exact += x, mag += fabs(x);
    }
    const double g = ref_to_double(PTO_FLOAT32, got);
    const double du = depth * 0x1p-24, bound = du / (1 - du) * mag;
    if (fabs(g - exact) > bound) fail_msg("%s: error %g above %g", what, fabs(g - exact), bound);
}

static void test_error_bound(void **state) {
    (void)state;
    rng r = {11};
    const uint32_t rows = 8, cols = under_emulation() ? 700 : 3000;
    uint64_t *bits = malloc(sizeof(uint64_t) * rows * cols);
    for (size_t i = 0; i < (size_t)rows * cols; ++i) bits[i] = f32_bits((float)rng_uniform(&r, -1, 1));
    uint64_t *got = malloc(sizeof(uint64_t) * (rows > cols ? rows : cols));
    char what[96];
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        /* Rows: A5's depth log2(64) + ceil(cols / 64) (the vcadd tree, then
         * the chunks in turn); A2A3's tree is shallower. */
        run_reduction(OP_TROWSUM, kProfiles[p], 0, PTO_FLOAT32, bits, rows, cols, got);
        for (uint32_t i = 0; i < rows; ++i) {
            snprintf(what, sizeof what, "trowsum %s row %u", pto_profile_string(kProfiles[p]), i);
            check_bound(what, &bits[(size_t)i * cols], cols, 1, got[i], 6 + ceil(cols / 64.0));
        }
        /* Columns of n = cols rows: A2A3's row after row n - 1, A5's pairs
         * ceil(n / 2) + 1, the binary trees ceil(log2 n) + 1. */
        for (int binary = 0; binary <= 1; ++binary) {
            run_reduction(OP_TCOLSUM, kProfiles[p], binary, PTO_FLOAT32, bits, cols, rows, got);
            const double n = cols;
            const double depth = binary ? ceil(log2(n)) + 1
                                        : (kProfiles[p] == PTO_PROFILE_A2A3 ? n - 1 : ceil(n / 2) + 1);
            for (uint32_t j = 0; j < rows; ++j) {
                snprintf(what, sizeof what, "tcolsum %s binary %d column %u",
                         pto_profile_string(kProfiles[p]), binary, j);
                check_bound(what, &bits[j], cols, rows, got[j], depth);
            }
        }
    }
    free(bits), free(got);
}

/* ---- shapes: dst as [R,1] or column 0 of [R,C]; partial regions; in place; maximal ---- */

static void test_shapes(void **state) {
    (void)state;
    rng r = {3};
    /* dst [R,C] with valid R x C: only column 0 (row 0) changes. */
    pto_tile *src = tile_new(PTO_FLOAT32, 6, 70, 5, 67);
    tile_fill(src, &r, GEN_ANY);
    pto_tile *wide = tile_new(PTO_FLOAT32, 6, 70, 5, 67), *narrow = tile_new(PTO_FLOAT32, 5, 1, 5, 1);
    tile_fill(wide, &r, GEN_ANY);
    uint64_t *before = tile_snapshot(wide);
    assert_int_equal(pto_trowsum(wide, src, NULL), PTO_OK);
    assert_int_equal(pto_trowsum(narrow, src, NULL), PTO_OK);
    for (uint32_t i = 0; i < 6; ++i)
        for (uint32_t j = 0; j < 70; ++j) {
            const uint32_t got = tile_get(wide, i, j);
            if (i < 5 && j == 0) assert_int_equal(got, tile_get(narrow, i, 0));
            else assert_int_equal(got, before[i * 70 + j]);
        }
    free(before);
    /* In place: dst is src; row i's sum lands in (i,0), column j's in (0,j). */
    pto_tile *copy = tile_new(PTO_FLOAT32, 6, 70, 5, 67);
    memcpy(pto_tile_data(copy), pto_tile_data(src), 6 * 70 * 4);
    assert_int_equal(pto_trowmax(copy, copy, NULL), PTO_OK);
    pto_tile *ref = tile_new(PTO_FLOAT32, 5, 1, 5, 1);
    assert_int_equal(pto_trowmax(ref, src, NULL), PTO_OK);
    for (uint32_t i = 0; i < 5; ++i) assert_int_equal(tile_get(copy, i, 0), tile_get(ref, i, 0));
    memcpy(pto_tile_data(copy), pto_tile_data(src), 6 * 70 * 4);
    assert_int_equal(pto_tcolsum(copy, copy, NULL, 1), PTO_OK);
    pto_tile *cref = tile_new(PTO_FLOAT32, 1, 67, 1, 67);
    assert_int_equal(pto_tcolsum(cref, src, NULL, 1), PTO_OK);
    for (uint32_t j = 0; j < 67; ++j) assert_int_equal(tile_get(copy, 0, j), tile_get(cref, 0, j));
    /* A column reduction of an empty region: PTO_OK, nothing written. */
    pto_tile *empty = tile_new(PTO_FLOAT32, 4, 8, 0, 8), *cdst = tile_new(PTO_FLOAT32, 1, 8, 1, 8);
    tile_fill(cdst, &r, GEN_ANY);
    uint64_t *cbefore = tile_snapshot(cdst);
    assert_int_equal(pto_tcolmax(cdst, empty, NULL), PTO_OK);
    assert_tile_unchanged(cdst, cbefore, "tcolmax of an empty region");
    free(cbefore);
    /* Maximal: one row of PTO_TILE_MAX_BYTES / 4 float32 ones: every A5
     * partial sum is exact, 2^26. */
    if (!under_emulation()) {
        const uint32_t n = (uint32_t)(PTO_TILE_MAX_BYTES / 4);
        pto_tile *big = NULL, *out = tile_new(PTO_FLOAT32, 1, 1, 1, 1);
        assert_int_equal(pto_tile_create(PTO_FLOAT32, 1, n, &big), PTO_OK);
        float *d = pto_tile_data(big);
        for (uint32_t i = 0; i < n; ++i) d[i] = 1.0f;
        assert_int_equal(pto_trowsum(out, big, NULL), PTO_OK);
        assert_int_equal(tile_get(out, 0, 0), f32_bits((float)n));
        assert_int_equal(pto_trowmin(out, big, NULL), PTO_OK);
        assert_int_equal(tile_get(out, 0, 0), f32_bits(1.0f));
        pto_tile_destroy(big);
        pto_tile_destroy(out);
    } else {
        print_message("[test_shapes] the %zu-byte row: not run under emulation\n",
                      (size_t)PTO_TILE_MAX_BYTES);
    }
    pto_tile_destroy(src), pto_tile_destroy(wide), pto_tile_destroy(narrow), pto_tile_destroy(copy);
    pto_tile_destroy(ref), pto_tile_destroy(cref), pto_tile_destroy(empty), pto_tile_destroy(cdst);
}

/* ---- a program on several blocks gives one block's bits ---- */

static const char kRowSumKernel[] =
    "module {\n"
    "  func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %n: index) {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c8 = arith.constant 8 : index\n"
    "    %c200 = arith.constant 200 : index\n"
    "    %bid = pto.get_block_idx\n"
    "    %bn = pto.get_block_num\n"
    "    %b = arith.index_cast %bid : i64 to index\n"
    "    %nb = arith.index_cast %bn : i64 to index\n"
    "    %rows = arith.muli %n, %c8 : index\n"
    "    %xv = pto.make_tensor_view %x, shape = [%rows, %c200], strides = [%c200, %c1] : !pto.tensor_view<?x200xf32>\n"
    "    %yv = pto.make_tensor_view %y, shape = [%rows, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x1xf32>\n"
    "    %tx = pto.alloc_tile : !pto.tile_buf<vec, 8x200xf32>\n"
    "    %tt = pto.alloc_tile : !pto.tile_buf<vec, 8x200xf32>\n"
    "    %ts = pto.alloc_tile : !pto.tile_buf<vec, 8x1xf32>\n"
    "    scf.for %i = %b to %n step %nb {\n"
    "      %r = arith.muli %i, %c8 : index\n"
    "      %xp = pto.partition_view %xv, offsets = [%r, %c0], sizes = [%c8, %c200] : !pto.tensor_view<?x200xf32> -> !pto.partition_tensor_view<8x200xf32>\n"
    "      %yp = pto.partition_view %yv, offsets = [%r, %c0], sizes = [%c8, %c1] : !pto.tensor_view<?x1xf32> -> !pto.partition_tensor_view<8x1xf32>\n"
    "      pto.tload ins(%xp : !pto.partition_tensor_view<8x200xf32>) outs(%tx : !pto.tile_buf<vec, 8x200xf32>)\n"
    "      pto.trowsum ins(%tx, %tt : !pto.tile_buf<vec, 8x200xf32>, !pto.tile_buf<vec, 8x200xf32>) outs(%ts : !pto.tile_buf<vec, 8x1xf32>)\n"
    "      pto.tstore ins(%ts : !pto.tile_buf<vec, 8x1xf32>) outs(%yp : !pto.partition_tensor_view<8x1xf32>)\n"
    "    }\n"
    "    return\n"
    "  }\n"
    "}\n";

static void run_rowsum_kernel(const pto_program *p, uint32_t blocks, float *x, float *y, int64_t n) {
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, x, (size_t)n * 8 * 200 * 4), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 1, y, (size_t)n * 8 * 4), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 2, n), PTO_OK);
    const pto_status s = pto_program_launch(p, blocks, a);
    if (s != PTO_OK) fail_msg("%s", pto_last_error());
    pto_args_destroy(a);
}

static void test_blocks(void **state) {
    (void)state;
    if (getenv("PTO_TEST_UNDER_QEMU") != NULL) {
        print_message("[test_blocks] under qemu-user: PTO_NUM_THREADS=1 (threads can hang there)\n");
        setenv("PTO_NUM_THREADS", "1", 1);
    }
    pto_program *p = NULL;
    if (pto_program_create(kRowSumKernel, strlen(kRowSumKernel), "reduce.pto", &p) != PTO_OK)
        fail_msg("%s", pto_last_error());
    const int64_t n = 7;
    const size_t count = (size_t)n * 8 * 200;
    float *x = malloc(count * 4), *one = malloc((size_t)n * 8 * 4), *many = malloc((size_t)n * 8 * 4);
    rng r = {5};
    for (size_t i = 0; i < count; ++i) x[i] = (float)rng_uniform(&r, -1e3, 1e3);
    run_rowsum_kernel(p, 1, x, one, n);
    for (uint32_t blocks = 2; blocks <= 5; ++blocks) {
        run_rowsum_kernel(p, blocks, x, many, n);
        assert_memory_equal(one, many, (size_t)n * 8 * 4);
    }
    /* And the C function's bits, row by row. */
    uint64_t *want = malloc(sizeof(uint64_t) * (size_t)n * 8);
    uint64_t *xb = malloc(count * sizeof(uint64_t));
    for (size_t i = 0; i < count; ++i) xb[i] = f32_bits(x[i]);
    run_reduction(OP_TROWSUM, PTO_PROFILE_HOST, 0, PTO_FLOAT32, xb, (uint32_t)n * 8, 200, want);
    for (size_t i = 0; i < (size_t)n * 8; ++i) assert_int_equal(f32_bits(one[i]), want[i]);
    free(x), free(one), free(many), free(want), free(xb);
    pto_program_destroy(p);
}

/* ---- isBinary in PTOAS's spellings ---- */

/* Runs a snippet whose free tiles are %s (5x1 float32 column), %t (its tmp)
 * and %d (1x1), and returns d(0,0). */
static uint32_t run_colsum_text(const char *text) {
    pto_program *p = NULL;
    if (pto_program_create(text, strlen(text), "colsum.pto", &p) != PTO_OK)
        fail_msg("%s\n%s", text, pto_last_error());
    const uint64_t col[] = {f32_bits(1.0f), 0, f32_bits(0x1p-24f), 0, f32_bits(0x1p-24f)};
    pto_tile *src = tile_new(PTO_FLOAT32, 5, 1, 5, 1), *tmp = tile_new(PTO_FLOAT32, 5, 1, 5, 1);
    pto_tile *dst = tile_new(PTO_FLOAT32, 1, 1, 1, 1);
    for (uint32_t i = 0; i < 5; ++i) tile_put(src, i, 0, col[i]);
    pto_args *a = NULL;
    size_t at = 0;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_program_param_find(p, "s", &at), PTO_OK);
    assert_int_equal(pto_args_set_tile(a, at, src), PTO_OK);
    if (pto_program_param_find(p, "t", &at) == PTO_OK) assert_int_equal(pto_args_set_tile(a, at, tmp), PTO_OK);
    assert_int_equal(pto_program_param_find(p, "d", &at), PTO_OK);
    assert_int_equal(pto_args_set_tile(a, at, dst), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_OK);
    const uint32_t v = tile_get(dst, 0, 0);
    pto_args_destroy(a);
    pto_program_destroy(p);
    pto_tile_destroy(src), pto_tile_destroy(tmp), pto_tile_destroy(dst);
    return v;
}

static void test_is_binary_spellings(void **state) {
    (void)state;
    /* Rows 1, 0, 2^-24, 0, 2^-24: the binary tree gives 1 + 2^-23, A5's
     * sequential order (HOST's) 1. */
    const uint32_t binary = f32_bits(1.0f + 0x1p-23f), sequential = f32_bits(1.0f);
#define S "!pto.tile_buf<vec, 5x1xf32>"
#define D "!pto.tile_buf<vec, 1x1xf32>"
    assert_int_equal(run_colsum_text("pto.tcolsum ins(%s, %t {isBinary = true} : " S ", " S ") outs(%d : " D ")\n"),
                     binary);
    assert_int_equal(run_colsum_text("pto.tcolsum ins(%s, %t : " S ", " S ") outs(%d : " D ") isBinary = true\n"),
                     binary);
    assert_int_equal(run_colsum_text("pto.tcolsum ins(%s, %t : " S ", " S ") outs(%d : " D ") {isBinary = true}\n"),
                     binary);
    assert_int_equal(run_colsum_text("pto.tcolsum ins(%s, %t {isBinary = false} : " S ", " S ") outs(%d : " D ")\n"),
                     sequential);
    assert_int_equal(run_colsum_text("pto.tcolsum ins(%s : " S ") outs(%d : " D ")\n"), sequential);
    assert_int_equal(run_colsum_text("%d = pto.tcolsum %s, %t {isBinary = true} : (!pto.tile<5x1xf32>, "
                                     "!pto.tile<5x1xf32>) -> !pto.tile<1x1xf32>\n"),
                     binary);
    assert_int_equal(run_colsum_text("%d = tcolsum %s {isBinary = true} : !pto.tile<5x1xf32> -> !pto.tile<1x1xf32>\n"),
                     binary);
#undef S
#undef D
    /* The synchronous form leaves tmp out; A2A3's row reductions get one. */
    pto_program *p = NULL;
    const char sync[] = "%d = trowsum %s : !pto.tile<5x1xf32> -> !pto.tile<5x1xf32>\n";
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    const pto_status made = pto_program_create(sync, strlen(sync), "rowsum.pto", &p);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    if (made != PTO_OK) fail_msg("%s", pto_last_error());
    pto_program_destroy(p);
    p = NULL;
    const char bad[] = "%d = tcolsum %s {isBinary = 2} : !pto.tile<5x1xf32> -> !pto.tile<1x1xf32>\n";
    assert_int_equal(pto_program_create(bad, strlen(bad), "colsum.pto", &p), PTO_ERR_INVALID_ARGUMENT);
    if (strstr(pto_last_error(), "isBinary is true or false") == NULL) fail_msg("%s", pto_last_error());
}

/* ---- refusals ---- */

static void expect(pto_status got, pto_status want, const char *needle) {
    if (got != want) fail_msg("status %s, expected %s (%s)", pto_status_string(got), pto_status_string(want), pto_last_error());
    if (needle != NULL && strstr(pto_last_error(), needle) == NULL)
        fail_msg("\"%s\" does not say \"%s\"", pto_last_error(), needle);
}

/* The refusal tests' tiles, destroyed together at the end. */
static pto_tile *g_made[64];
static size_t g_made_count;
static pto_tile *mk(pto_dtype dt, uint32_t rows, uint32_t cols, uint32_t vr, uint32_t vc) {
    assert_true(g_made_count < COUNT(g_made));
    return g_made[g_made_count++] = tile_new(dt, rows, cols, vr, vc);
}

static void test_refusals(void **state) {
    (void)state;
    pto_tile *src = mk(PTO_FLOAT32, 4, 300, 4, 300), *dst = mk(PTO_FLOAT32, 4, 1, 4, 1);
    pto_tile *cdst = mk(PTO_FLOAT32, 1, 300, 1, 300);
    pto_tile *i8 = mk(PTO_INT8, 4, 8, 4, 8), *i8dst = mk(PTO_INT8, 4, 1, 4, 1);
    pto_tile *u16 = mk(PTO_UINT16, 4, 8, 4, 8), *u16dst = mk(PTO_UINT16, 4, 1, 4, 1);
    pto_tile *h = mk(PTO_FLOAT16, 4, 1, 4, 1);
    pto_tile *tmp = mk(PTO_FLOAT32, 4, 128, 4, 128), *small = mk(PTO_FLOAT32, 4, 64, 4, 64);
    /* NULLs. */
    expect(pto_trowsum(NULL, src, NULL), PTO_ERR_NULL_ARGUMENT, "pto_trowsum: dst");
    expect(pto_tcolmin(cdst, NULL, NULL), PTO_ERR_NULL_ARGUMENT, "pto_tcolmin: src");
    /* binary_order outside 0..1 (before the dtypes). */
    expect(pto_tcolsum(cdst, src, NULL, 2), PTO_ERR_INVALID_ARGUMENT, "binary_order");
    expect(pto_tcolsum(u16dst, src, NULL, -1), PTO_ERR_INVALID_ARGUMENT, "binary_order");
    /* dtypes: UINT16 has no row reduction anywhere; INT8 row max on A5 and
     * HOST, not on A2A3; a src of another dtype. */
    expect(pto_trowsum(u16dst, u16, NULL), PTO_ERR_UNSUPPORTED_DTYPE, "pto_trowsum");
    assert_int_equal(pto_trowmax(i8dst, i8, NULL), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_trowmax(i8dst, i8, NULL), PTO_OK);
    assert_int_equal(pto_tcolsum(mk(PTO_UINT16, 1, 8, 1, 8), u16, NULL, 0), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    pto_tile *i8tmp = mk(PTO_INT8, 4, 64, 4, 64);
    expect(pto_trowmax(i8dst, i8, i8tmp), PTO_ERR_UNSUPPORTED_DTYPE, "A2A3");
    expect(pto_tcolsum(mk(PTO_UINT16, 1, 8, 1, 8), u16, NULL, 0), PTO_ERR_UNSUPPORTED_DTYPE, "A2A3");
    /* A2A3's tmp: required, of dst's dtype, large enough. */
    expect(pto_trowsum(dst, src, NULL), PTO_ERR_NULL_ARGUMENT, "on A2A3 trowsum needs a tmp");
    expect(pto_trowsum(dst, src, mk(PTO_FLOAT16, 4, 128, 4, 128)), PTO_ERR_DTYPE_MISMATCH, "tmp");
    /* 300 columns: 4 repeats of 64, summed in pairs into 2 slots of 64 = 128 columns. */
    assert_int_equal(pto_trowsum(dst, src, tmp), PTO_OK);
    expect(pto_trowsum(dst, src, small), PTO_ERR_SHAPE_MISMATCH, "tmp cols 64 is less than 128");
    pto_tile *i32 = mk(PTO_INT32, 4, 8, 4, 8), *i32dst = mk(PTO_INT32, 4, 1, 4, 1);
    expect(pto_trowsum(i32dst, i32, mk(PTO_INT32, 1, 4, 1, 4)), PTO_ERR_SHAPE_MISMATCH, "32-byte");
    assert_int_equal(pto_trowsum(i32dst, i32, mk(PTO_INT32, 1, 8, 1, 8)), PTO_OK);
    /* tcolsum's binary order needs a tmp on A2A3 and A5, not sequential. */
    assert_int_equal(pto_tcolsum(cdst, src, NULL, 0), PTO_OK);
    expect(pto_tcolsum(cdst, src, NULL, 1), PTO_ERR_NULL_ARGUMENT, "binary order");
    expect(pto_tcolsum(cdst, src, mk(PTO_FLOAT32, 2, 299, 2, 299), 1), PTO_ERR_SHAPE_MISMATCH, "tmp cols");
    expect(pto_tcolsum(cdst, src, mk(PTO_FLOAT32, 1, 300, 1, 300), 1), PTO_ERR_SHAPE_MISMATCH, "tmp rows");
    assert_int_equal(pto_tcolsum(cdst, src, mk(PTO_FLOAT32, 2, 300, 2, 300), 1), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_int_equal(pto_tcolsum(cdst, src, NULL, 1), PTO_OK);
    /* dtype mismatch; tmp the same handle as dst or src. */
    expect(pto_trowmax(h, src, NULL), PTO_ERR_DTYPE_MISMATCH, "src");
    expect(pto_trowmax(dst, src, dst), PTO_ERR_ALIASING, "tmp");
    expect(pto_tcolmax(cdst, src, src), PTO_ERR_ALIASING, "tmp");
    /* Shapes. */
    expect(pto_trowsum(mk(PTO_FLOAT32, 5, 1, 5, 1), src, NULL), PTO_ERR_SHAPE_MISMATCH,
           "dst valid rows 5 differs from src valid rows 4");
    expect(pto_trowsum(mk(PTO_FLOAT32, 4, 2, 4, 0), src, NULL), PTO_ERR_SHAPE_MISMATCH, "column 0");
    expect(pto_trowsum(dst, mk(PTO_FLOAT32, 4, 8, 4, 0), NULL), PTO_ERR_SHAPE_MISMATCH, "empty");
    expect(pto_tcolsum(mk(PTO_FLOAT32, 1, 299, 1, 299), src, NULL, 0), PTO_ERR_SHAPE_MISMATCH,
           "dst valid cols 299 differs from src valid cols 300");
    expect(pto_tcolmax(mk(PTO_FLOAT32, 1, 300, 0, 300), src, NULL), PTO_ERR_SHAPE_MISMATCH, "row 0");
    /* A failed call writes nothing. */
    uint64_t *before = tile_snapshot(dst);
    expect(pto_trowsum(dst, src, dst), PTO_ERR_ALIASING, NULL);
    assert_tile_unchanged(dst, before, "a refused trowsum");
    free(before);
    for (size_t k = 0; k < g_made_count; ++k) pto_tile_destroy(g_made[k]);
    g_made_count = 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orders_by_hand),
        cmocka_unit_test(test_against_order_reference),
        cmocka_unit_test(test_error_bound),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_blocks),
        cmocka_unit_test(test_is_binary_spellings),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
